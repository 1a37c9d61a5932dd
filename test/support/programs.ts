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

// REORDER (issue 29): a reorder buffer of 4 slots. The producer sends sequence numbers 1, 0, 2, 3,
// 8; the collector places each (place, then slot: two helpers that also name a parameter `base`)
// and slides its window, storing its own `base` 5 times (13:5, then 19:13 four times); seq 8 is
// 4 past the window and `buf[i] = v` (2:55, one line, in place called from 16:9) panics with
// index out of range [4]. main is blocked in `println(str(<-done))` (29:5).
export const REORDER = `func slot(base, seq) { return seq - base }
func place(buf, base, seq, v) { i := slot(base, seq)  buf[i] = v }
func producer(out) {
    order := []int{1, 0, 2, 3, 8}
    k := 0
    for k < 5 {
        out <- order[k]
        k = k + 1
    }
}
func collector(in, done) {
    buf := []int{-1, -1, -1, -1}
    base := 0
    for true {
        seq := <-in
        place(buf, base, seq, seq * 10)
        for buf[0] >= 0 {
            buf[0] = buf[1]  buf[1] = buf[2]  buf[2] = buf[3]  buf[3] = -1
            base = base + 1
        }
    }
    done <- base
}
func main() {
    ch := make(chan int)
    done := make(chan int)
    go producer(ch)
    go collector(ch, done)
    println(str(<-done))
}
`;

// BALANCER (issue 29): a worker sends four results (57..60), then starts the weigher, which sends
// weights 3, 2, 0 (so the run is the same in every recording); the
// balancer takes them in a select (`r`, `nw` bound by its cases) into `total` (6:5, then 10:30)
// and `w` (7:5, then 11:31), and reports total / w through report and share (helpers that also
// name parameters `total` and `w`); the weight 0 makes share (1:31) divide by zero. main is
// blocked in `<-done` (22:5), the line after `go worker(1, results, start)`.
export const BALANCER = `func share(total, w) { return total / w }
func report(total, w) { println(str(share(total, w))) }
func worker(id, results, start) { k := 0  for k < 4 { results <- id * 16 + 57 + k  k = k + 1 }  start <- 1 }
func weigher(start, weights) { <-start  weights <- 3  weights <- 2  weights <- 0 }
func balancer(results, weights, done) {
    total := 0
    w := 1
    for true {
        select {
        case r := <-results: total = total + r
        case nw := <-weights: w = nw
        }
        report(total, w)
    }
    done <- total
}
func main() {
    results := make(chan int)  weights := make(chan int)  done := make(chan int)  start := make(chan int)
    go weigher(start, weights)
    go balancer(results, weights, done)
    go worker(1, results, start)
    <-done
}
`;
