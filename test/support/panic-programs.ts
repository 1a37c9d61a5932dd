// Small crashing programs of the MCP and CLI source-level tests, each with the statement that
// panics and the stack there as read off the text by hand (not from the engine): the place an
// agent must find from fields alone.
export interface PanicProgram {
  name: string;
  source: string;
  /** machin's panic message. */
  message: string;
  /** The goroutine that panicked. */
  thread: string;
  /** The stack at the panic, innermost first: `function line:column`. */
  frames: string[];
  /** The panicking statement's text on its line (a statement over several lines ends with ` …`). */
  text: string;
  endLine: number;
  /** Values at the panic by frame (0: the innermost), as the debug console answers them. */
  values: Array<{ frame: number; expression: string; result: string }>;
}

// main divides 12 by what worker sends (2, 1, 0): the third call of ratio divides by zero (line 2).
export const DIVIDER: PanicProgram = {
  name: 'divider',
  source: `func ratio(a, b) {
    q := a / b
    return q
}
func worker(ch, n) {
    i := 0
    for i < n {
        ch <- n - i - 1
        i = i + 1
    }
}
func main() {
    ch := make(chan int)
    go worker(ch, 3)
    sum := 0
    k := 0
    for k < 3 {
        d := <-ch
        sum = sum + ratio(12, d)
        k = k + 1
    }
    println(str(sum))
}
`,
  message: 'integer divide by zero',
  thread: '0',
  frames: ['ratio 2:5', 'main 19:9'],
  text: 'q := a / b',
  endLine: 2,
  values: [
    { frame: 0, expression: 'b', result: '0' },
    { frame: 0, expression: 'a * 2', result: '24' },
    { frame: 1, expression: 'sum', result: '18' },
    { frame: 1, expression: 'k', result: '2' },
  ],
};

// The teller goroutine (0.1) takes 30 (left 70), then 71, over its limit: `return limits[amount]`
// inside the one-line `if` of check (line 2, column 22) indexes past the end.
export const TELLER: PanicProgram = {
  name: 'teller',
  source: `func check(limits, amount) {
    if amount > 50 { return limits[amount] }
    return amount
}
func teller(ch, done) {
    balance := 100
    limits := []int{1, 2, 3}
    for balance > 0 {
        amount := <-ch
        balance = balance - check(limits, amount)
        done <- balance
    }
}
func main() {
    ch := make(chan int)
    done := make(chan int)
    go teller(ch, done)
    ch <- 30
    left := <-done
    ch <- left + 1
    println(str(<-done))
}
`,
  message: 'index out of range [71] with length 3',
  thread: '0.1',
  frames: ['check 2:22', 'teller 10:9'],
  text: 'return limits[amount]',
  endLine: 2,
  values: [
    { frame: 0, expression: 'amount', result: '71' },
    { frame: 1, expression: 'balance', result: '70' },
    { frame: 1, expression: 'balance - amount', result: '-1' },
  ],
};

// A goroutine (0.1.1) started by another (0.1, which does no op) sends pick(xs, j): the second
// pick reads xs[3] in a statement over two lines (2 to 3).
export const LEAF: PanicProgram = {
  name: 'leaf',
  source: `func pick(xs, i) {
    v := xs[i +
        2]
    return v
}
func leaf(out, xs) {
    j := 0
    for j < 3 {
        out <- pick(xs, j)
        j = j + 1
    }
}
func spawner(out) {
    xs := []int{5, 6, 7}
    go leaf(out, xs)
}
func main() {
    out := make(chan int)
    go spawner(out)
    a := <-out
    println(str(a))
    b := <-out
    println(str(b))
}
`,
  message: 'index out of range [3] with length 3',
  thread: '0.1.1',
  frames: ['pick 2:5', 'leaf 9:9'],
  text: 'v := xs[i + …',
  endLine: 3,
  values: [
    { frame: 0, expression: 'i', result: '1' },
    { frame: 1, expression: 'j', result: '1' },
  ],
};

export const PANIC_PROGRAMS = [DIVIDER, TELLER, LEAF];
