// Shared by the machin bridge tests: the fixtures of ../shared/fixtures/machin (real machin 0.137.0
// traces and the real outputs of every replay command), read independently of the engine.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MACHIN_FIXTURES } from '../support/paths';

export const FIXTURES = MACHIN_FIXTURES;

const madeDirs: string[] = [];
process.on('exit', () => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh folder under the system temp folder, removed when the test process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

export interface RecordedReplay {
  /** As recorded, with `{trace}` for the trace path. */
  args: string[];
  stdout: string;
  stderr: string;
  exit: number;
}

export interface FixtureTrace {
  /** `crash/crash.mflrr` */
  name: string;
  dir: string;
  traceFile: string;
  programFile: string;
  replays: RecordedReplay[];
}

/** Every trace of every fixture with its recorded replays (both shapes of outputs.json). */
export function fixtureTraces(): FixtureTrace[] {
  const out: FixtureTrace[] = [];
  for (const d of readdirSync(FIXTURES).sort()) {
    const dir = path.join(FIXTURES, d);
    if (!statSync(dir).isDirectory() || !existsSync(path.join(dir, 'outputs.json'))) continue;
    const outputs = JSON.parse(readFileSync(path.join(dir, 'outputs.json'), 'utf8')) as Record<string, unknown>;
    const programFile = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.mfl'))!);
    if (Array.isArray(outputs.replays)) {
      const trace = readdirSync(dir).find((f) => f.endsWith('.mflrr'))!;
      out.push({ name: `${d}/${trace}`, dir, traceFile: path.join(dir, trace), programFile, replays: outputs.replays as RecordedReplay[] });
    } else {
      for (const [trace, byCommand] of Object.entries(outputs as Record<string, Record<string, Omit<RecordedReplay, 'args'>>>)) {
        const replays = Object.entries(byCommand).map(([command, r]) => ({ ...r, args: command.split(' ') }));
        out.push({ name: `${d}/${trace}`, dir, traceFile: path.join(dir, trace), programFile, replays });
      }
    }
  }
  return out;
}

/** The goroutine id of every `S` line of a trace file, in order: an independent count. */
export function scheduleLines(traceFile: string): string[] {
  return readFileSync(traceFile, 'latin1')
    .split('\n')
    .filter((l) => l.startsWith('S '))
    .map((l) => l.slice(2).trim());
}

/** The decoded values of a goroutine's `I` lines. */
export function ioValues(traceFile: string, goroutine: string): string[] {
  return readFileSync(traceFile, 'latin1')
    .split('\n')
    .filter((l) => l.startsWith(`I ${goroutine} `))
    .map((l) => Buffer.from(l.slice(3 + goroutine.length), 'hex').toString('latin1'));
}

/** The recorded replay with exactly these flags (order-free), or undefined. */
export function recorded(fx: FixtureTrace, flag: '--json' | '--verify' | '--print' | null): RecordedReplay | undefined {
  return fx.replays.find((r) => {
    const flags = r.args.filter((a) => a.startsWith('--'));
    return flag === null ? flags.length === 0 : flags.length === 1 && flags[0] === flag;
  });
}

/**
 * A private copy of a fixture as a user would have it: the trace (still naming
 * /home/ci/app/..., which does not exist here) with the program beside it.
 */
export function stageFixture(fx: FixtureTrace, root = tempDir('machin-test-')): { dir: string; trace: string; program: string } {
  const trace = path.join(root, path.basename(fx.traceFile));
  const program = path.join(root, path.basename(fx.programFile));
  copyFileSync(fx.traceFile, trace);
  copyFileSync(fx.programFile, program);
  return { dir: root, trace, program };
}
