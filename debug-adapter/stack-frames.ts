// A thread's frames (frames.ts) as DAP stack frames, in the client's lines, columns and paths: the
// recording's frame on its served document (sources.ts), a program's on its file, a frame with
// no place (a goroutine without records) subtle.
import { Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import type { Recording } from '../replay-engine/model/recording';
import type { PlaceConversion } from './place-conversion';
import { threadFrames } from './frames';
import type { ReplayRuntime } from './runtime';
import { servedSource } from './sources';

export function stackFrames(rt: ReplayRuntime, t: number, toClient: PlaceConversion): DebugProtocol.StackFrame[] {
  return threadFrames(rt, t).map((f): DebugProtocol.StackFrame => ({
    id: f.id,
    name: f.name,
    source: f.where?.type === 'recording' ? recordingSource(rt.recording) : f.where ? new Source(basename(f.where.path), toClient.path(f.where.path)) : undefined,
    line: f.where ? toClient.line(f.line) : 0,
    column: f.where ? toClient.column(f.column) : 0,
    endLine: f.endLine !== undefined ? toClient.line(f.endLine) : undefined,
    endColumn: f.endColumn !== undefined ? toClient.column(f.endColumn) : undefined,
    presentationHint: f.subtle ? 'subtle' : f.where?.type === 'recording' ? 'normal' : undefined,
  }));
}

/** The recording's served document as a DAP source (by its sourceReference, never its path: sources.ts says why). */
export function recordingSource(recording: Recording): Source {
  const s = servedSource(recording);
  const src = new Source(s.name, undefined, s.sourceReference, s.origin) as DebugProtocol.Source;
  src.presentationHint = 'emphasize';
  return src as Source;
}
