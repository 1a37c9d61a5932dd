// Runs `tin replay CAPSULE --against BUILD [--live KIND]... [--save-test NAME --issue N]` through
// runProcess: an argument array, the key only in the child's environment (TIN_REPLAY_KEY), a time
// limit and cancellation; the output is parsed into a ReplayReport.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { RecordingError } from '../model/errors';
import { runProcess } from '../toolchain/run-process';
import { parseReplayReport, type ReplayReport } from './replay-report';

export interface TinReplayRequest {
  tin: string;
  capsule: string;
  build: string;
  /** Effect kinds performed for real (`--live KIND`). */
  live?: string[];
  /** The 32 key bytes; given to tin as TIN_REPLAY_KEY in its environment only. */
  key: Uint8Array;
  saveTest?: { name: string; issue: number };
  /** Folder tin runs in (a saved test lands in its tests/regressions). */
  cwd?: string;
  timeLimitMs?: number;
  signal?: AbortSignal;
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

const DEFAULT_TIME_LIMIT_MS = 120_000;
/** A regression test name becomes file names: a plain identifier only. */
const TEST_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;
const KIND = /^[a-z][a-z0-9._-]*(@\d+)?$/;

/** Checks everything about a request that can be checked before tin runs; throws a usage error. */
export function checkReplayRequest(req: Omit<TinReplayRequest, 'tin' | 'key'>): void {
  if (!existsSync(req.capsule)) throw new RecordingError('usage', `${req.capsule}: no such capsule`);
  if (!existsSync(req.build)) throw new RecordingError('usage', `${req.build}: no such build (give a tin binary or a .tin file)`);
  for (const kind of req.live ?? []) {
    if (!KIND.test(kind)) throw new RecordingError('usage', `--live ${JSON.stringify(kind)}: not an effect kind (for example redis or redis@1)`);
  }
  if (req.saveTest) {
    const { name, issue } = req.saveTest;
    if (!TEST_NAME.test(name)) {
      throw new RecordingError('usage', `--save-test ${JSON.stringify(name)}: a test name is a plain identifier (letters, digits, _ and -, starting with a letter or _), since it names files`);
    }
    if (!Number.isSafeInteger(issue) || issue <= 0) throw new RecordingError('usage', `--issue wants a positive issue number, got ${issue}`);
    if (!req.build.endsWith('.tin') || !statSync(req.build).isFile()) {
      throw new RecordingError('usage', `--save-test needs BUILD to be a .tin file (the test keeps a copy of the source); ${req.build} is not one`);
    }
  }
}

export function replayArgs(req: Omit<TinReplayRequest, 'tin' | 'key'>): string[] {
  const args = ['replay', resolve(req.capsule), '--against', resolve(req.build)];
  for (const kind of req.live ?? []) args.push('--live', kind);
  if (req.saveTest) args.push('--save-test', req.saveTest.name, '--issue', String(req.saveTest.issue));
  return args;
}

export async function runTinReplay(req: TinReplayRequest): Promise<ReplayReport> {
  checkReplayRequest(req);
  const result = await runProcess(req.tin, replayArgs(req), {
    cwd: req.cwd,
    env: { TIN_REPLAY_KEY: Buffer.from(req.key).toString('hex') },
    timeLimitMs: req.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
    signal: req.signal,
    onOutput: req.onOutput,
  });
  return parseReplayReport(result.stdout, result.stderr, result.exitCode);
}
