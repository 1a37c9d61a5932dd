// The documents a stack frame points at.
//
// The recording's own text is served through a DAP `sourceReference`, read-only, and never as
// the file path: the timeline custom editor is VS Code's default editor for `*.mflrr` (and
// `*.tcap`), so a frame whose source were the file would open in the timeline, where no current
// line can be shown. VS Code turns a source with a sourceReference into a `debug:` URI whose path
// comes from the source's `path` or `name`; custom editors are chosen by that path's base name
// regardless of the scheme, so the served source has no `path` and a name that does not end in
// `.mflrr`/`.tcap` (`crash.mflrr (replay)`). Its mimeType `text/x-mflrr` lets the extension's
// `mflrr` language (and the language server) take it.
//
// Breakpoints still bind both ways: a setBreakpoints request is for this recording when its
// source's sourceReference is ours, or its path is the recording file (breakpoints set in the
// trace opened as text), or its name is the served name. Lines are the same in all three, because
// the served text is the file's text (a trace) or the decoded document whose lines the timeline
// already numbers (a capsule).
import { basename, resolve } from 'node:path';
import { RecordingError } from '../replay-engine/model/errors';
import type { Recording } from '../replay-engine/model/recording';
import { readStampedFile, sameStamp } from '../replay-engine/regular-file';

export const RECORDING_SOURCE_REFERENCE = 1;

export interface ServedSource {
  name: string;
  sourceReference: number;
  mimeType: string;
  origin: string;
}

export function servedSource(recording: Recording): ServedSource {
  const file = recording.timeline.file;
  const served = recording.timeline.traits.served;
  return { name: `${basename(file)} (${served.suffix})`, sourceReference: RECORDING_SOURCE_REFERENCE, mimeType: served.mimeType, origin: served.origin };
}

/**
 * The served document's text: the trace file as it is, or the capsule's decoded document. Read
 * when a `source` request asks (never at launch: the engine reads a trace in chunks and never
 * holds its text), off the event loop (the read runs on libuv's pool; only the decode is synchronous).
 * The trace must be the version the session indexed: a file changed since (cut, rewritten, replaced)
 * would put the frames' lines on other text, so it is refused with what to do.
 */
export async function sourceText(recording: Recording): Promise<string> {
  if (recording.decodedDocument) return recording.decodedDocument();
  const file = recording.timeline.file;
  const { bytes, stamp } = await readStampedFile(file);
  const was = recording.stamp;
  if (was && !sameStamp(was, stamp)) {
    throw new RecordingError(
      'io',
      `${file}: the trace changed on disk after this session read it (${was.size} bytes then, ${stamp.size} now), so its lines no longer match the session's records; restart the debug session to read it again`,
      { file },
    );
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * Whether the session keeps the text for the next `source` request. A trace is read again from
 * disk each time (the page cache makes that cheap; VS Code asks again only when the document was
 * closed): a 100 MB trace is then held only while one response is built, never as a second copy
 * beside the next read. A capsule's decoded document is computed, not read, so it is kept.
 */
export function keepText(recording: Recording): boolean {
  return recording.decodedDocument !== undefined;
}

function samePath(a: string, b: string): boolean {
  const x = resolve(a);
  const y = resolve(b);
  return process.platform === 'win32' || process.platform === 'darwin' ? x.toLowerCase() === y.toLowerCase() : x === y;
}

/** Is a DAP source (from setBreakpoints, gotoTargets, ...) this recording's document? */
export function isRecordingSource(recording: Recording, source: { path?: string; name?: string; sourceReference?: number }): boolean {
  if (source.sourceReference === RECORDING_SOURCE_REFERENCE) return true;
  if (source.path && samePath(source.path, recording.timeline.file)) return true;
  if (!source.path && source.name === servedSource(recording).name) return true;
  return false;
}
