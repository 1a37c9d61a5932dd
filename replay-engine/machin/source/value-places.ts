// Where a value of the instrumented replay goes once the statement index is known: a value after
// its goroutine's n-th statement probe is stored by the index's n-th event of that goroutine, at
// its position at the earliest (never before the thread's floor), and is sure exactly when that
// event is (happens-before.ts sureValue). A value whose event the index does not hold (after the
// goroutine's first statement unlike the index's, or past its events) is placed by its own ops
// alone, as without statements. One rule for the values placed as the parse reads them and for
// those placed from the parse's columns (statement-replay.ts).
import type { Timeline } from '../../model/timeline';
import type { ValuePlace } from '../run-replay';
import { probePlacer, type ProbePlacer } from '../probe-position';
import { sureValue, type SureEvents } from './happens-before';
import type { StatementIndex } from './statement-index';

export class StatementValuePlaces {
  private readonly placer: ProbePlacer;
  private readonly enderThread: number;
  /**
   * Per thread, how many of its own ops came before its last value: machin's @op never goes back
   * within a goroutine, so the next value's count is found from there (a binary search if it did).
   */
  private readonly ownOpsSeen: number[] = [];
  /** The answer, reused (read it before the next call). */
  private readonly spot: ValuePlace = { event: -2, position: 0, sure: false };
  /** Goroutine id -> its index in the SureEvents. */
  private readonly sureIndex: Map<string, number>;

  constructor(
    private readonly tl: Timeline,
    private readonly index: StatementIndex,
    private readonly sure: SureEvents,
  ) {
    this.placer = probePlacer(tl);
    this.enderThread = sure.ender >= 0 ? tl.threadIndex(sure.goroutines[sure.ender]) : -1;
    this.sureIndex = new Map(sure.goroutines.map((g, k) => [g, k]));
  }

  /** The goroutine's index in the SureEvents (at's `sureIndex`), -1 when the statements' replay did not name it. */
  sureIndexOf(goroutine: string): number {
    return this.sureIndex.get(goroutine) ?? -1;
  }

  /**
   * A value of thread t printed at `op` after its goroutine's statement probe `after` (its index
   * among them; -1: before the first, its first function's parameters). `differsFrom`: the
   * goroutine's first statement probe unlike the index's (Infinity: none); `sureIndex`: the
   * goroutine's index in the SureEvents (-1: none).
   */
  at(t: number, after: number, differsFrom: number, sureIndex: number, op: number): ValuePlace {
    const index = this.index;
    const spot = this.spot;
    // (-2: not placed at a statement)
    const e = after < index.eventsOf(t) && !(after >= differsFrom) ? after : -2;
    const own = this.placer.ownOps(t);
    const k = this.ownOpsBefore(t, own, Math.min(op, this.tl.stepCount));
    spot.event = e;
    spot.position = Math.max(k === 0 ? 0 : own[k - 1] + 1, index.threads[t]?.floor ?? 0);
    // (an unplaced value: the own-op rule, as without statements)
    spot.sure = e === -2 || sureIndex < 0 ? this.sure.deadlock || this.placer.alwaysPrinted(t, op, this.enderThread) : sureValue(this.sure, sureIndex, e, k, own);
    return spot;
  }

  /** A value of thread t known only by its `op` (the parse read it as lines): its own ops place it. */
  byOp(t: number, op: number): ValuePlace {
    const spot = this.spot;
    spot.event = -2;
    spot.position = Math.max(this.placer.place(t, op), this.index.threads[t]?.floor ?? 0);
    spot.sure = this.sure.deadlock || this.placer.alwaysPrinted(t, op, this.enderThread);
    return spot;
  }

  /** A value of a goroutine that is no thread (never: enrich.ts adds every goroutine a replay names). */
  nowhere(): ValuePlace {
    const spot = this.spot;
    spot.event = -2;
    spot.position = 0;
    spot.sure = false;
    return spot;
  }

  private ownOpsBefore(t: number, own: Uint32Array, op: number): number {
    let k = this.ownOpsSeen[t] ?? 0;
    if (k > 0 && own[k - 1] >= op) k = this.placer.ownOpsBefore(t, op);
    while (k < own.length && own[k] < op) k++;
    this.ownOpsSeen[t] = k;
    return k;
  }
}
