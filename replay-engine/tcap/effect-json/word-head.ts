// The opening every line of word-line.ts and wall-line.ts shares: an effect with an empty key, a
// result, ident 0 and one 8-byte word as its data, up to where the decoded value's text starts:
// `{"seq":R,"kind":…,"key":"","outcome":"result","ident":0,"thread":T,"dataHex":"HEX","decoded":{"key":…,"result":{"text":"`.
import { hexAt, put, uintAt } from './line-bytes';

/** The constant pieces of the opening. */
export interface WordHead {
  /** `{"seq":` */
  seq: Uint8Array;
  /** `,"kind":…,"key":"","outcome":"result","ident":0,"thread":` */
  head: Uint8Array;
  /** `,"dataHex":"` */
  dataHex: Uint8Array;
  /** `","decoded":{"key":…,"result":` and the start of the value's text */
  decoded: Uint8Array;
}

/** A line written whole, kept as the template of the next: its bytes and its holes' widths. */
export interface HeadTemplate {
  bytes: Uint8Array;
  seqLength: number;
  taskLength: number;
}

/** The pieces for a kind; `decoded` is the JSON from `","decoded":` on, up to the value's text. */
export function wordHead(kind: string, decoded: string): WordHead {
  const b = (s: string) => Buffer.from(s, 'utf8');
  return {
    seq: b('{"seq":'),
    head: b(`,"kind":${JSON.stringify(kind)},"key":"","outcome":"result","ident":0,"thread":`),
    dataHex: b(',"dataHex":"'),
    decoded: b(decoded),
  };
}

/** The widths of the seq's and the task's digits the last headAt wrote (a template keeps them). */
export const headWidths = { seq: 0, task: 0 };

/** The opening of effect r's line at p; the offset after it. */
export function headAt(buf: Uint8Array, p: number, h: WordHead, r: number, task: number, body: Uint8Array, dataAt: number): number {
  p = put(buf, p, h.seq);
  const seqAt = p;
  p = uintAt(buf, p, r);
  headWidths.seq = p - seqAt;
  p = put(buf, p, h.head);
  const taskAt = p;
  p = uintAt(buf, p, task);
  headWidths.task = p - taskAt;
  p = put(buf, p, h.dataHex);
  p = hexAt(buf, p, body, dataAt, dataAt + 8);
  return put(buf, p, h.decoded);
}

/**
 * The opening over a template copied to start, with effect r's seq, task and word: the offset
 * after it, or -1 when the seq's or the task's width is not the template's.
 */
export function headAgain(buf: Uint8Array, start: number, h: WordHead, t: HeadTemplate, r: number, task: number, body: Uint8Array, dataAt: number): number {
  const seqAt = start + h.seq.length;
  if (uintAt(buf, seqAt, r) !== seqAt + t.seqLength) return -1;
  const taskAt = seqAt + t.seqLength + h.head.length;
  if (uintAt(buf, taskAt, task) !== taskAt + t.taskLength) return -1;
  return hexAt(buf, taskAt + t.taskLength + h.dataHex.length, body, dataAt, dataAt + 8) + h.decoded.length;
}
