// The decoded text document of a capsule: a header block (facts, the request with its headers),
// then one line per effect at timeline.lineOf(r). The debug adapter serves it through a
// sourceReference (breakpoints go on its lines) and the language server decorates it.
import { basename } from 'node:path';
import type { DecodedValue } from '../model/recording';
import type { HeaderFact, Timeline } from '../model/timeline';
import type { CapsuleHeader } from './body';
import { bytesValue, quote } from './decode/bytes-text';
import { parseRequest } from './decode/http-request';

/** What the document is made from (a TcapRecording). */
export interface CapsuleEffectText {
  timeline: Timeline;
  header: CapsuleHeader;
  task(r: number): number;
  effectText(r: number, decoded: { key: DecodedValue; result: DecodedValue }): string;
  decodedOnce(r: number): { key: DecodedValue; result: DecodedValue };
}

/** Headers listed in the document; a request with more says how many more. */
const DOCUMENT_HEADERS = 100;

/** The lines before the first effect; the first effect is on line `length + 1`. */
export function documentHeaderLines(file: string, header: CapsuleHeader, facts: HeaderFact[]): string[] {
  const lines = [`# Tin capsule ${basename(file)}`];
  for (const f of facts) if (f.key !== 'request') lines.push(`${f.label}: ${f.value}`);
  const req = parseRequest(header.request);
  lines.push(`Request: ${facts.find((f) => f.key === 'request')?.value ?? ''}`);
  const shown = req.headers.slice(0, DOCUMENT_HEADERS);
  for (const h of shown) lines.push(`  ${h.name}: ${oneLine(h.value)}${h.secret ? '   (secret handle)' : ''}`);
  if (req.headerCount > shown.length) lines.push(`  … and ${(req.headerCount - shown.length).toLocaleString('en')} more headers (frozen-run inspect --json lists all)`);
  lines.push(`  body: ${bytesValue(req.body).text}`);
  lines.push('');
  lines.push('# seq task  kind  key → result');
  return lines;
}

export function effectLine(rec: CapsuleEffectText, r: number): string {
  const task = rec.task(r);
  return `#${r} task ${task}  ${rec.timeline.kindName(r)}  ${rec.effectText(r, rec.decodedOnce(r))}`;
}

export function renderDocument(rec: CapsuleEffectText): string {
  const tl = rec.timeline;
  const lines = documentHeaderLines(tl.file, rec.header, tl.facts);
  if (lines.length + 1 !== tl.firstRecordLine) throw new Error('capsule document header changed length');
  for (let r = 0; r < tl.recordCount; r++) lines.push(effectLine(rec, r));
  return `${lines.join('\n')}\n`;
}

function oneLine(s: string): string {
  return /[\x00-\x1f\x7f]/.test(s) ? quote(s, 1000) : s.length > 1000 ? `${s.slice(0, 1000)}… (${s.length} chars)` : s;
}
