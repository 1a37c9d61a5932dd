// What one printed run of a statements-only copy does to a goroutine's frames, worked out once
// per run and reused: a loop prints the same few runs hundreds of thousands of times (the same
// number, so the same statements), and the index builder then writes each such run's events
// and frames with typed-array copies instead of walking its statements one by one.
//
// A template is made for a run started in a frame of function f that is not returning, and it
// holds only when the run stays at or above that frame: every frame it enters it leaves again,
// it never returns from the starting frame nor needs a repair (statement-index.ts ThreadBuilder
// has the rules; runTemplate follows them step by step). Any other run is taken statement by
// statement, as before.
import { KIND_ENTRY, KIND_EXIT, KIND_RETURN, type RowCodes } from './row-codes';

export interface RunTemplate {
  /** The function of the frame the run starts in. */
  readonly fn: number;
  /** Whether the run stays at or above its starting frame (else it is taken statement by statement). */
  readonly ok: boolean;
  /** Per event: 0 for the starting frame, k for the k-th frame the run enters. */
  readonly frame: Int32Array;
  /** Per frame the run enters (in order): its function, the run's event that called it (-1: the starting frame's latest event before the run), its depth above the starting frame. */
  readonly newFn: Int32Array;
  readonly newCall: Int32Array;
  readonly newDepth: Int32Array;
  /** The run's last event in the starting frame, -1 when none. */
  readonly lastInStart: number;
  /** The run's `go` statements (event offsets). */
  readonly spawns: Int32Array;
  /** The same run started in a frame of another function. */
  next: RunTemplate | null;
}

/** A run machin printed (one number), its statements, and its templates by starting function. */
export class PrintedRun {
  templates: RunTemplate | null = null;
  constructor(readonly ids: Int32Array) {}

  /** The template for a start in a frame of function `fn`, made on first use. */
  templateIn(fn: number, codes: RowCodes): RunTemplate {
    for (let t = this.templates; t !== null; t = t.next) if (t.fn === fn) return t;
    const t = runTemplate(codes, this.ids, fn);
    t.next = this.templates;
    this.templates = t;
    return t;
  }
}

const NOT_OK: Omit<RunTemplate, 'fn' | 'next'> = {
  ok: false,
  frame: new Int32Array(0),
  newFn: new Int32Array(0),
  newCall: new Int32Array(0),
  newDepth: new Int32Array(0),
  lastInStart: -1,
  spawns: new Int32Array(0),
};

/**
 * The template of `ids` started in a frame of function `fn0` that is not returning: ThreadBuilder.add
 * step by step on a stack whose bottom is that frame (index 0 here; entered frames 1, 2, ...).
 */
export function runTemplate(codes: RowCodes, ids: Int32Array, fn0: number): RunTemplate {
  const n = ids.length;
  const { kind, fn, returnCalls, spawns } = codes;
  const frame = new Int32Array(n);
  const newFn: number[] = [];
  const newCall: number[] = [];
  const newDepth: number[] = [];
  const spawnAt: number[] = [];
  // The open frames (0 is the starting one), their function, latest event (-1: before the run) and awaited calls (-1: not returning, -2: returning, count not fixed).
  const stack = [0];
  const stackFn = [fn0];
  const latest = [-1];
  const awaiting = [-1];
  const notOk = (): RunTemplate => ({ fn: fn0, next: null, ...NOT_OK });
  const pop = (): boolean => {
    for (;;) {
      if (stack.length === 1) return false; // (it would leave the starting frame)
      stack.pop();
      stackFn.pop();
      latest.pop();
      awaiting.pop();
      const top = awaiting.length - 1;
      if (!(awaiting[top] > 0 && --awaiting[top] === 0)) return true;
    }
  };
  for (let i = 0; i < n; i++) {
    const r = ids[i] - 1;
    if (!(r >= 0 && r < kind.length)) return notOk();
    const k = kind[r];
    if (k === KIND_ENTRY) {
      const depth = stack.length - 1;
      newFn.push(fn[r]);
      newCall.push(latest[depth]);
      newDepth.push(depth + 1);
      stack.push(newFn.length);
      stackFn.push(fn[r]);
      latest.push(-1);
      awaiting.push(-1);
    } else {
      while (awaiting[awaiting.length - 1] === -2) if (!pop()) return notOk();
      if (stackFn[stackFn.length - 1] !== fn[r]) return notOk(); // (a repair)
    }
    const top = stack.length - 1;
    frame[i] = stack[top];
    latest[top] = i;
    if (spawns[r]) spawnAt.push(i);
    if (k === KIND_EXIT || (k === KIND_RETURN && returnCalls[r] === 0)) {
      if (!pop()) return notOk();
    } else if (k === KIND_RETURN) {
      if (top === 0) return notOk(); // (the starting frame would be returning)
      awaiting[top] = returnCalls[r] < 0 ? -2 : returnCalls[r];
    }
  }
  if (stack.length !== 1) return notOk(); // (it leaves frames open)
  return {
    fn: fn0,
    next: null,
    ok: true,
    frame,
    newFn: Int32Array.from(newFn),
    newCall: Int32Array.from(newCall),
    newDepth: Int32Array.from(newDepth),
    lastInStart: latest[0],
    spawns: Int32Array.from(spawnAt),
  };
}
