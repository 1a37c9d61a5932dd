// Programs the source-level tests record with the real machin, shared so that the engine's test
// and the adapter's test debug the same program. DIGGER: a goroutine sending three values that
// main receives in a loop, two recursive functions, and a panic three calls deep (line 6,
// `return xs[5]`).
export const DIGGER = `func depth(n) {
    if n == 0 { return 0 }
    return 1 + depth(n - 1)
}
func dig(xs, n) {
    if n == 0 { return xs[5] }
    return dig(xs, n - 1)
}
func worker(ch, n) {
    i := 0
    for i < n {
        ch <- i * 10
        i = i + 1
    }
}
func main() {
    ch := make(chan int)
    go worker(ch, 3)
    total := 0
    got := 0
    for got < 3 {
        v := <-ch
        total = total + v
        got = got + 1
    }
    println("total " + str(total))
    d := depth(3)
    println("depth " + str(d))
    xs := []int{1, 2}
    println(str(dig(xs, 3)))
}
`;

// RESHAPER: main receives a value, then stores x three times with no op in between (lines 8 to
// 10), then receives again. A data breakpoint on x must stop at each of those statements.
export const RESHAPER = `func feeder(ch) {
    ch <- 4
    ch <- 100
}
func main() {
    ch := make(chan int)
    go feeder(ch)
    x := <-ch
    x = x + 1
    x = x * 2
    x = x + 3
    y := <-ch
    println(str(x + y))
}
`;

// SUMMER: sum(n) calls itself before it uses n again (line 5): each frame's n is its own, not
// the n its callee stored last.
export const SUMMER = `func feed(ch) { ch <- 3 }
func sum(n) {
    if n == 0 { return 0 }
    r := sum(n - 1)
    t := r + n
    return t
}
func main() {
    ch := make(chan int)
    go feed(ch)
    k := <-ch
    s := sum(k)
    println(str(s))
}
`;

// SPAWNER: goroutine 0.1 (starter) does no op of its own; it starts the two workers that send to
// main. Its statements through its second `go` (line 8) surely ran; `x = x + 1` after it (line 9)
// races with main's exit.
export const SPAWNER = `func worker(ch, v) {
    ch <- v
}
func starter(ch) {
    x := 1
    go worker(ch, x)
    x = x + 1
    go worker(ch, x)
    x = x + 1
}
func main() {
    ch := make(chan int)
    go starter(ch)
    a := <-ch
    b := <-ch
    println(str(a + b))
}
`;

/**
 * A goroutine with no record of its own panics (issue 25): `parent` (0.1) starts `compute`
 * (0.1.1), which sends back 0; `parent` receives it and starts `divider(w, done)` (0.1.2), which
 * divides by it. The trace has two ops (compute's send, parent's receive); main blocks in `<-done`.
 */
export const DIVIDE = `func compute(n, out) {
    a := n * 3
    b := a - 9
    out <- b
}

func divider(x, done) {
    k := 100
    q := k / x
    done <- q
}

func parent(done) {
    results := make(chan int)
    go compute(3, results)
    v := <-results
    w := v + 0
    go divider(w, done)
}

func main() {
    done := make(chan int)
    go parent(done)
    r := <-done
    println(str(r))
}
`;
