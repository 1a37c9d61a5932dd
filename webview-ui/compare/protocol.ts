// Messages between the extension host and the compare webview (two recordings side by side).
// Same conventions as ../protocol.ts: the webview says `ready` with the version, the host answers
// with the packed model; bulk arrays travel as one msgpackr Uint8Array.
import { Packr } from 'msgpackr';
import type { TimelineModel } from '../protocol';

export const COMPARE_PROTOCOL_VERSION = 1;

export type CompareSide = 'a' | 'b';

/** The alignment as the engine computed it (replay-engine/compare/alignment.ts). */
export interface AlignmentMsg {
  /** 4 per hunk: aStart, aEnd, bStart, bEnd (records, end exclusive). Between hunks records match one to one. */
  hunks: Uint32Array;
  /** Records paired inside hunks (same slot, another value): pairA[i] ↔ pairB[i]. */
  pairA: Uint32Array;
  pairB: Uint32Array;
  /** Hunk h owns pairs pairStart[h] .. pairStart[h+1]. */
  pairStart: Uint32Array;
}

export interface CompareModel {
  a: TimelineModel;
  b: TimelineModel;
  alignment: AlignmentMsg;
  /** Records where the two part (null on a side that has ended), or null when they never do. */
  divergence: { a: number | null; b: number | null } | null;
  /** One sentence: where the runs part. */
  headline: string;
  /** A few more lines: common prefix, values that differ, first variable that differs. */
  details: string[];
}

export type HostToCompare =
  | { type: 'compare'; version: number; data: Uint8Array }
  | { type: 'error'; message: string };

export type CompareToHost =
  | { type: 'ready'; version: number }
  /**
   * The user selected a record; `counterpart` is the record selected on the other side (-1: none).
   * The host needs nothing from it today; it is the view's report of a selection (tests read it).
   */
  | { type: 'selected'; side: CompareSide; record: number; counterpart: number; exact: boolean }
  /** "Debug from divergence" (or from the selection): a session on `side` stopped at `record`. */
  | { type: 'debug'; side: CompareSide; record: number };

const packr = new Packr({ moreTypes: true, useRecords: false });

export function packCompare(model: CompareModel): Uint8Array {
  const b = packr.pack(model);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function unpackCompare(data: Uint8Array): CompareModel {
  return packr.unpack(data) as CompareModel;
}
