// What the extension host sends the history panel, from value histories the engine built (here
// from the real `machin replay --print` output stored with a fixture, parsed by the engine).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parseReplayOutput } from '../../../replay-engine/machin/machin-output';
import { ProbeHistories } from '../../../replay-engine/model/probe-histories';
import type { Recording, ValueHistories } from '../../../replay-engine/model/recording';
import { historyModel } from '../../../extension/view-models/history-model';
import { packHistory, PROTOCOL_VERSION } from '../../../webview-ui/protocol';
import { FIXTURES } from './fixtures';
import { postToView } from './host-stand-in';

/** Histories from a `--print` stderr, with goroutine ids mapped to the recording's thread indices. */
export function historiesFromProbes(recording: Recording, stderr: string, watched: string[]): ProbeHistories {
  const out = parseReplayOutput(stderr);
  const t = recording.timeline;
  return ProbeHistories.of(
    out.probes.map((p) => ({ name: p.name, thread: t.threadIndex(p.goroutine), position: p.op, value: p.value })),
    watched,
  );
}

/** The fixture's real `machin replay --print` run. */
export function fixtureHistories(name: string, recording: Recording): ProbeHistories {
  const outputs = JSON.parse(readFileSync(join(FIXTURES, 'machin', name, 'outputs.json'), 'utf8')) as {
    replays: Array<{ args: string[]; stderr: string }>;
  };
  const run = outputs.replays.find((r) => r.args.includes('--print'));
  if (!run) throw new Error(`${name} has no --print run`);
  const watched = run.args[run.args.indexOf('--print') + 1].split(',');
  return historiesFromProbes(recording, run.stderr, watched);
}

/** Answers `ready` with the watched names and `pickVariable` with that variable's history. */
export function historyHost(recording: Recording, histories: ValueHistories) {
  return async (m: Record<string, unknown>, page: Page): Promise<void> => {
    if (m.type === 'ready') await postToView(page, { type: 'names', version: PROTOCOL_VERSION, names: histories.names });
    if (m.type === 'pickVariable' && typeof m.name === 'string') {
      const b64 = Buffer.from(packHistory(historyModel(recording, histories, m.name))).toString('base64');
      await page.evaluate((data) => (window as unknown as { harness: { postHistoryBase64(b: string): void } }).harness.postHistoryBase64(data), b64);
    }
  };
}
