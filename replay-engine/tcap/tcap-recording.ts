// A Tin capsule as a Recording: every effect is a record and a step (position p = effects
// completed), threads are tasks, the payload of a record is its effect's data. What the Timeline
// does not hold (keys, outcomes, sentinels, task numbers) lives in side typed arrays here.
import { RecordingError, type EngineWarning } from '../model/errors';
import { cutText } from '../model/cut-text';
import type { DecodedValue, PanicInfo, RecordView, CapsuleRecording, SourceLocation, ValueHistories, VerifyVerdict } from '../model/recording';
import type { IdentityBytes, RecordParts } from '../model/record-parts';
import type { Timeline } from '../model/timeline';
import type { CapsuleHeader, EffectCounts } from './body';
import { child, hex, looseText } from './decode/bytes-text';
import { decodeKey, decodeResult } from './decode/effect-kinds';
import { parseRequest, requestValue, type RequestParts } from './decode/http-request';
import { renderDocument } from './document';
import { FLAG_PANICKED, FLAG_SAMPLED, SELECT_KIND } from './format';
import { capsuleHistories } from './histories';
import type { EffectIndex } from './effect-index';
import { SiteFinder } from './select-sites';
import { capsuleInspectDocument, capsuleInspectJson, capsuleInspectText } from './inspect';

/** An effect's outcome word: 0 a result, 1 a fault. */
const OUTCOME_FAULT = 1;

/** Raw data bytes for the details view: hex, the first 4 KiB of it for a large payload. */
function dataHexValue(data: Uint8Array): DecodedValue {
  const shown = hex(data.subarray(0, DATA_HEX_LIMIT));
  const more = data.length > DATA_HEX_LIMIT ? `… (${data.length} bytes, first ${DATA_HEX_LIMIT} shown)` : ` (${data.length} bytes)`;
  return { text: data.length ? `${shown}${more}` : 'empty (0 bytes)', type: 'hex' };
}

const DATA_HEX_LIMIT = 4096;
/** Effects whose decoded key and result are kept (see decoded()). */
const DECODED_KEPT = 64;

/** The secret-handle key of each open capsule, kept off the object so no dump or JSON can show it. */
const secretKeys = new WeakMap<TcapRecording, Uint8Array>();

export function secretKeyOf(rec: TcapRecording): Uint8Array {
  const ks = secretKeys.get(rec);
  if (!ks) throw new RecordingError('usage', `${rec.timeline.file}: this capsule was not opened with a key, so secrets cannot be checked`);
  return ks;
}

export class TcapRecording implements CapsuleRecording {
  readonly format = 'tcap' as const;
  readonly warnings: EngineWarning[];
  readonly bestEffort = false;
  readonly verify: VerifyVerdict | null = null;
  readonly panic: PanicInfo | null;
  private document: string | undefined;
  private valueHistories: ValueHistories | undefined;
  private requestParts: RequestParts | undefined;
  private readonly sites: SiteFinder;
  private readonly taskOfThread: Uint32Array;
  private readonly decodedCache = new Map<number, { key: DecodedValue; result: DecodedValue }>();

  constructor(
    readonly timeline: Timeline,
    /** Envelope version (1: the only one this reader opens). */
    readonly envelope: number,
    readonly header: CapsuleHeader,
    /** Where each effect's fields sit in the decrypted body (keys and data are views into it). */
    readonly effects: EffectIndex,
    secretKey: Uint8Array,
    programRoots: readonly string[],
    warnings: EngineWarning[] = [],
    /** Effects per kind and per thread index, as the body scan counted them (else counted when asked). */
    private readonly counts?: EffectCounts,
  ) {
    secretKeys.set(this, secretKey);
    this.taskOfThread = Uint32Array.from(timeline.threads, (t) => Number(t.id));
    this.warnings = warnings;
    this.sites = new SiteFinder(programRoots);
    this.panic = this.panicked || header.panic.length > 0 ? this.panicInfo() : null;
  }

  /** Every effect's results as variables (see histories.ts); built on first use. */
  get histories(): ValueHistories | null {
    return (this.valueHistories ??= capsuleHistories(this));
  }

  get panicked(): boolean {
    return (this.header.flags & FLAG_PANICKED) !== 0n;
  }

  get sampled(): boolean {
    return (this.header.flags & FLAG_SAMPLED) !== 0n;
  }

  /** Effects per kind index and per thread index. */
  effectCounts(): EffectCounts {
    if (this.counts) return this.counts;
    const tl = this.timeline;
    const byKind = new Uint32Array(tl.kinds.length);
    const byThread = new Uint32Array(tl.threads.length);
    for (let r = 0; r < tl.recordCount; r++) {
      byKind[tl.kind[r]]++;
      byThread[tl.thread[r]]++;
    }
    return { byKind, byThread };
  }

  get request(): RequestParts {
    return (this.requestParts ??= parseRequest(this.header.request));
  }

  key(r: number): Uint8Array {
    return this.effects.key(r);
  }

  data(r: number): Uint8Array {
    return this.effects.data(r);
  }

  outcome(r: number): number {
    return this.effects.outcome(r);
  }

  ident(r: number): number {
    return this.effects.ident(r);
  }

  /** The task number of effect r (the thread's id is its decimal digits). */
  task(r: number): number {
    return this.taskOfThread[this.timeline.thread[r]];
  }

  /** The recorded request as a tree (method, target, version, headers, query, body). */
  requestValue(): DecodedValue {
    return requestValue(this.header.request);
  }

  faults(): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.timeline.recordCount; r++) if (this.outcome(r) === OUTCOME_FAULT) out.push(r);
    return out;
  }

  /** An effect is its key (what was asked); its result is outcome, ident and data (a fault is not the same as a value). */
  comparisonParts(): RecordParts {
    return {
      identity: keyTable(this.timeline.recordCount, (r) => this.key(r)),
      result: (r) => {
        const data = this.data(r);
        const out = new Uint8Array(data.length + 2);
        out[0] = this.outcome(r);
        out[1] = this.ident(r);
        out.set(data, 2);
        return out;
      },
      valueText: (r) => this.effectText(r),
    };
  }

  programNamed(): string {
    return this.timeline.facts.find((f) => f.key === 'program')?.value ?? '';
  }

  inspectDocument(withRecords = true): object {
    return capsuleInspectDocument(this, withRecords);
  }

  inspectJson(withRecords = true): object {
    return capsuleInspectJson(this, withRecords);
  }

  inspectText(): string {
    return capsuleInspectText(this);
  }

  decodedKey(r: number): DecodedValue {
    return this.decoded(r).key;
  }

  decodedResult(r: number): DecodedValue {
    return this.decoded(r).result;
  }

  /**
   * Effect r's key and result, decoded once: a view asks for the same few effects again and again
   * (every stackTrace, variables and hover of a stop), and a large key (a pipeline of a million
   * Redis commands) costs a pass over its bytes. The last DECODED_KEPT effects are kept.
   */
  private decoded(r: number): { key: DecodedValue; result: DecodedValue } {
    let d = this.decodedCache.get(r);
    if (d) {
      this.decodedCache.delete(r); // most recent last
    } else {
      const kind = this.timeline.kindName(r);
      const key = this.key(r);
      d = { key: decodeKey(kind, key), result: decodeResult(kind, key, this.data(r), this.outcome(r), this.ident(r)) };
      if (this.decodedCache.size >= DECODED_KEPT) this.decodedCache.delete(this.decodedCache.keys().next().value as number);
    }
    this.decodedCache.set(r, d);
    return d;
  }

  /** The same, without keeping it: for passes over every effect (inspect --json, the document). */
  decodedOnce(r: number): { key: DecodedValue; result: DecodedValue } {
    const cached = this.decodedCache.get(r);
    if (cached) return cached;
    const kind = this.timeline.kindName(r);
    const key = this.key(r);
    return { key: decodeKey(kind, key), result: decodeResult(kind, key, this.data(r), this.outcome(r), this.ident(r)) };
  }

  /** `GET cart:7 → "sku-1,sku-2"`: the key and the result on one line, at most VALUE_TEXT_LIMIT characters. */
  effectText(r: number, d = this.decoded(r)): string {
    const text = `${d.key.type === 'empty' ? '' : `${d.key.text} `}→ ${d.result.text}`;
    return cutText(text);
  }

  describe(r: number): RecordView {
    const tl = this.timeline;
    const kind = tl.kindName(r);
    const d = this.decoded(r);
    const key = d.key;
    const result = d.result;
    const fault = this.outcome(r) === OUTCOME_FAULT;
    const children = [
      child('seq', { text: String(r), type: 'number' }),
      child('kind', { text: kind, type: 'text' }),
      child('task', { text: String(this.task(r)), type: 'number' }),
      child('key', key),
      child('outcome', { text: fault ? 'fault' : 'result', type: 'text' }),
      child(fault ? 'fault' : 'result', result),
      child('data', dataHexValue(this.data(r))),
    ];
    if (fault) children.splice(5, 0, child('ident', { text: String(this.ident(r)), type: 'number' }));
    const summary = `${kind} ${this.effectText(r, d)}`;
    return {
      record: r,
      kind,
      thread: tl.thread[r],
      line: tl.lineOf(r),
      step: r,
      position: r + 1,
      summary,
      value: { text: summary, type: fault ? 'fault' : 'effect', children },
    };
  }

  decodedDocument(): string {
    return (this.document ??= renderDocument(this));
  }

  sourceLocation(r: number): SourceLocation | undefined {
    if (this.timeline.kindName(r) !== SELECT_KIND) return undefined;
    return this.sites.locate(looseText(this.key(r)));
  }

  /** The recorded panic: on the task of the last effect, after every effect completed. */
  private panicInfo(): PanicInfo {
    const tl = this.timeline;
    const chain = tl.stepThreads();
    const message = looseText(this.header.panic);
    return {
      message: message || `panicked (status ${this.header.status}, no message recorded)`,
      thread: tl.recordCount ? tl.thread[tl.recordCount - 1] : 0,
      position: tl.stepCount,
      causalChain: chain,
      source: 'capsule',
    };
  }
}

/** Every effect's key in one pool (a capsule's keys total at most its body's size). */
function keyTable(count: number, effectKey: (r: number) => Uint8Array): IdentityBytes {
  const begin = new Uint32Array(count);
  const end = new Uint32Array(count);
  let total = 0;
  for (let r = 0; r < count; r++) total += effectKey(r).length;
  const pool = new Uint8Array(total);
  let at = 0;
  for (let r = 0; r < count; r++) {
    const key = effectKey(r);
    pool.set(key, at);
    begin[r] = at;
    at += key.length;
    end[r] = at;
  }
  return { pool, begin, end };
}
