// Recordings for the webview tests: real fixtures read by the engine, with the panic facts taken
// from the real `machin replay --json` output stored beside them, and hostile traces written to
// a temporary folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecording } from '../../../replay-engine/open';
import type { PanicInfo, Recording } from '../../../replay-engine/model/recording';

import { FIXTURES } from '../../support/paths';
export { FIXTURES };

export async function machinFixture(name: string): Promise<Recording> {
  return readRecording(join(FIXTURES, 'machin', name, `${name}.mflrr`));
}

/** The panic as the real `machin replay --json` printed it for this fixture, mapped to thread indices. */
export function machinPanic(name: string, recording: Recording): PanicInfo | null {
  const outputs = JSON.parse(readFileSync(join(FIXTURES, 'machin', name, 'outputs.json'), 'utf8')) as {
    replays: Array<{ args: string[]; stderr: string }>;
  };
  const run = outputs.replays.find((r) => r.args.includes('--json'));
  const line = run?.stderr.split('\n').find((l) => l.startsWith('{'));
  if (!line) return null;
  const j = JSON.parse(line) as { panic: string; goroutine: string; scheduleOp: number };
  const steps = recording.timeline.stepThreads();
  return {
    message: j.panic,
    position: j.scheduleOp,
    thread: recording.timeline.threadIndex(j.goroutine),
    causalChain: Uint32Array.from(steps.subarray(0, j.scheduleOp)),
    source: 'machin',
  };
}

/** A Tin capsule fixture, opened with the key its .expect.json names (the public fixture key). */
export async function tinFixture(name: string): Promise<Recording> {
  const expect = JSON.parse(readFileSync(join(FIXTURES, 'tin', `${name}.expect.json`), 'utf8')) as { key: string };
  return readRecording(join(FIXTURES, 'tin', `${name}.tcap`), { keyHex: expect.key });
}

export function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

export const XSS_IMG = '<img src=x onerror="window.__xss=1">';
export const XSS_SCRIPT = '<script>window.__xss=2</script>';

/** A trace whose program path and I/O values are markup, read through the engine. */
export async function hostileRecording(): Promise<Recording> {
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-webview-'));
  const file = join(dir, 'hostile.mflrr');
  writeFileSync(
    file,
    [
      'MFLRR 1',
      'boundary faithful',
      `program /tmp/${XSS_IMG}.mfl`,
      'safe 0',
      'S 0.1',
      `I 0 ${hex(XSS_IMG)}`,
      `I 0 ${hex(XSS_SCRIPT)}`,
      'S 0',
      'S 0.1',
      '',
    ].join('\n'),
  );
  return readRecording(file);
}
