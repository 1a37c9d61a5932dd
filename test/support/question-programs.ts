// Programs for the whole-run questions (issue 30): log points, line counts, value origins. One
// statement per line, so the independent per-line probe (truth-probes.ts) can follow them.

/** Three workers run the same loop (line 5) a different number of times; main never takes line 24. */
export const WORKERS = `func work(id, n, done) {
    i := 0
    acc := 0
    for i < n {
        acc = acc + id * i
        i = i + 1
    }
    done <- acc
}

func main() {
    done := make(chan int)
    go work(1, 3, done)
    go work(2, 4, done)
    go work(3, 3, done)
    total := 0
    k := 0
    for k < 3 {
        r := <-done
        total = total + r
        k = k + 1
    }
    if total > 1000 {
        println("big")
    }
    println(str(total))
}
`;
export const WORKERS_LOOP_LINE = 5;
export const WORKERS_NEVER_LINE = 24;
export const WORKERS_RECEIVE_LINE = 19;

/** A reader goroutine reads the clock and sends it; main receives it and copies it. */
export const CLOCK_READER = `func reader(out) {
    t := now_ms()
    out <- t
}

func main() {
    ch := make(chan int)
    go reader(ch)
    v := <-ch
    w := v
    println(str(w))
}
`;

/** A reader goroutine reads stdin, then the clock, and sends both; main copies the stdin text. */
export const STDIN_THEN_CLOCK = `func reader(out) {
    s := read_stdin()
    t := now_ms()
    out <- s
    out <- str(t)
}

func main() {
    ch := make(chan string)
    go reader(ch)
    got := <-ch
    c := <-ch
    k := got
    println(k + c)
}
`;

/** Range loops over a channel and a slice; each iteration prints its bound names (machin's own truth). */
export const RANGES = `func src(out) {
    k := 1
    for k <= 3 {
        out <- k * 10
        k = k + 1
    }
    close(out)
}

func main() {
    ch := make(chan int)
    go src(ch)
    total := 0
    for v := range ch {
        total = total + v
        println("v " + str(v))
    }
    xs := []int{4, 5, 6}
    for i, x := range xs {
        println("ix " + str(i) + " " + str(x))
    }
    println(str(total))
}
`;
export const RANGES_CHANNEL_BODY_LINE = 15;
export const RANGES_SLICE_BODY_LINE = 20;

/** machin's canonical one-line form: the loop begins mid-line, after the function's first statements. */
export const ONE_LINE = `func work(id, n, done) { i := 0  acc := 0  for i < n { acc = acc + i * id  i = i + 1 } done <- acc }
func main() { done := make(chan int)  go work(1, 3, done)  go work(2, 4, done)  f := func(k) { return k + 1 }  a := <-done  b := <-done  println(str(f(a) + f(b))) }
`;
/** The column of \`acc = acc + i * id\` on line 1 (the loop body's first statement). */
export const ONE_LINE_BODY_COLUMN = 56;
