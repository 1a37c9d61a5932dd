// Reading a statements-only copy back where some calls are not printed before (instrument.ts
// splicedCalls): the callee's runs come out before the run of its caller that holds the calling
// statement, and go right after that statement. Per goroutine, in print order, a run is one
// function's: it opens an execution when its first statement is a spliced function's entry, adds
// to the open one otherwise (or goes straight out when none is open), and ends the execution when
// its last statement is that function's return or end. An ended execution waits until a run holds
// its call: a run's k calls are the k latest ended executions not yet put, in order (everything a
// function called since its last run ended after it last printed, and nothing since: a callee
// prints all it ran by its end, and the caller runs only quiet statements between).
import type { StatementRow } from './instrument';

const NONE = 0;
const ENTRY = 1;
const END = 2;
const CALL = 3;

/**
 * A goroutine's held statements, in one buffer in the order they ran: the open executions
 * (outermost first, each followed by what it called and not yet placed) and the ended ones not yet
 * put after their call. An open execution's statements so far end where the first segment after it
 * starts (an ended callee's) or at `length`. The stacks are typed arrays with counts: a run of
 * millions of calls makes no garbage.
 */
class Held {
  buf: Int32Array<ArrayBuffer> = new Int32Array(64);
  length = 0;
  /** Open executions: where each starts, and its function. */
  readonly open = new PairStack();
  /** Ended executions not yet put, oldest first: [start, end) in buf. */
  readonly ended = new PairStack();

  constructor(public lastOp: number) {}

  room(n: number): Int32Array {
    if (n > this.buf.length) this.buf = grown(this.buf, n, this.length);
    return this.buf;
  }
}

/** A stack of pairs of integers, in two typed arrays. */
class PairStack {
  first: Int32Array<ArrayBuffer> = new Int32Array(16);
  second: Int32Array<ArrayBuffer> = new Int32Array(16);
  length = 0;

  push(a: number, b: number): void {
    if (this.length === this.first.length) {
      this.first = grown(this.first, this.length + 1, this.length);
      this.second = grown(this.second, this.length + 1, this.length);
    }
    this.first[this.length] = a;
    this.second[this.length++] = b;
  }
}

/** A copy of a[0, used) in an array of at least n (twice a's size at least). */
function grown(a: Int32Array, n: number, used: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(Math.max(n, a.length * 2));
  for (let i = 0; i < used; i++) bigger[i] = a[i];
  return bigger;
}

export class CallSplicer {
  /** By statement id - 1: NONE, ENTRY, END or CALL. */
  private readonly role: Uint8Array;
  private readonly fnOf: Int32Array;
  /** By goroutine index. */
  private readonly held: Array<Held | undefined> = [];
  /** A run with its callees put in (`take`'s result when it goes out). */
  private out = new Int32Array(256);
  /** Why the runs are no walk of the copy (the first such), when they are not. */
  bad: string | null = null;

  constructor(rows: StatementRow[]) {
    this.role = Uint8Array.from(rows, (r) => (r.splice === 'entry' ? ENTRY : r.splice === 'end' ? END : r.splice === 'call' ? CALL : NONE));
    this.fnOf = Int32Array.from(rows, (r) => r.fn);
  }

  /** Whether the copy has any such call (else every run goes straight out). */
  static needed(rows: StatementRow[]): boolean {
    return rows.some((r) => r.splice !== undefined);
  }

  /**
   * One printed run of goroutine g, ids[0, n), expanded (StatementRow.expands), printed at `op`:
   * returns how many statements are to be taken now, in `this.result` (a caller's statements with
   * its callees' after each call); 0 when they wait for their caller.
   */
  take(g: number, ids: Int32Array, n: number, op: number): number {
    if (n === 0) return 0;
    const h = (this.held[g] ??= new Held(op));
    h.lastOp = op;
    const role = this.role;
    let calls = 0;
    for (let i = 0; i < n; i++) if (role[ids[i] - 1] === CALL) calls++;
    const ended = h.ended.length;
    if (calls > ended) {
      this.bad ??= `a run of goroutine g${g} holds ${calls} call(s) whose callee printed ${ended} run(s) not yet placed`;
      return 0;
    }
    // The run with each call's execution after it (the last `calls` ended ones, in order, which lie
    // at the buffer's end), made in `out`, then kept in the buffer when an execution is open.
    const at = calls > 0 ? h.ended.first[ended - calls] : h.length;
    const need = n + (h.length - at);
    if (this.out.length < need) this.out = new Int32Array(Math.max(this.out.length * 2, need));
    const out = this.out;
    const buf = h.buf;
    let m = 0;
    let c = ended - calls;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      out[m++] = id;
      if (role[id - 1] !== CALL) continue;
      for (let k = h.ended.first[c], end = h.ended.second[c]; k < end; k++) out[m++] = buf[k];
      c++;
    }
    h.ended.length = ended - calls;
    if (role[ids[0] - 1] === ENTRY) h.open.push(at, this.fnOf[ids[0] - 1]);
    const last = ids[n - 1];
    const ends = role[last - 1] === END;
    if (h.open.length === 0) {
      h.length = at;
      if (ends) this.bad ??= `goroutine g${g} printed the end of statement ${last}'s function, which it was not running`;
      return m;
    }
    const into = h.room(at + m);
    for (let i = 0; i < m; i++) into[at + i] = out[i];
    h.length = at + m;
    if (ends) {
      if (h.open.second[h.open.length - 1] !== this.fnOf[last - 1]) {
        this.bad ??= `goroutine g${g} printed the end of statement ${last}'s function, which it was not running`;
        return 0;
      }
      h.ended.push(h.open.first[--h.open.length], h.length);
    }
    return 0;
  }

  /** The statements `take` returned. */
  get result(): Int32Array {
    return this.out;
  }

  /**
   * What goroutine g printed that no run of its caller placed (the run ended first: machin exits
   * with main, and a goroutine's later statements are never printed), in the order it ran, with
   * the `@op` of its last run (it did no op since: its callees do none): taken as they are, after
   * everything else of the goroutine.
   */
  leftover(g: number): { ids: Int32Array; op: number } | null {
    const h = this.held[g];
    if (!h || h.length === 0) return null;
    this.held[g] = undefined;
    return { ids: h.buf.slice(0, h.length), op: h.lastOp };
  }
}
