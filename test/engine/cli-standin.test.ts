// `frozen-run inspect` and `history` through machin-standin (a STAND-IN that replays outputs
// recorded from real machin 0.137.0, test/standins/): panic, causal chain, verify verdict and
// histories must equal what machin printed in the fixtures' outputs.json.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, CLI, ROOT } from './build-cli';
import { MACHIN_FIXTURES } from '../support/paths';

const FIX = MACHIN_FIXTURES;
const STANDIN = join(ROOT, 'test/standins/bin/machin');
before(async () => {
  await buildCli();
});

interface Replay {
  args: string[];
  stderr: string;
}

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--machin', STANDIN], { encoding: 'utf8', env: { ...process.env, MACHIN: '' }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dirs = readdirSync(FIX).filter((d) => {
  try {
    return Array.isArray((JSON.parse(readFileSync(join(FIX, d, 'outputs.json'), 'utf8')) as { replays?: unknown }).replays);
  } catch {
    return false;
  }
});

describe('frozen-run with machin-standin', () => {
  for (const d of dirs) {
    const trace = readdirSync(join(FIX, d)).find((f) => f.endsWith('.mflrr'));
    if (!trace) continue;
    const file = join(FIX, d, trace);
    const replays = (JSON.parse(readFileSync(join(FIX, d, 'outputs.json'), 'utf8')) as { replays: Replay[] }).replays;
    if (readFileSync(file).length === 0) continue; // the empty deadlock trace: see cli.test.ts

    it(`${d}: inspect --json agrees with machin replay --json and --verify`, () => {
      const r = run(['inspect', file, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      const jsonLine = replays.find((x) => x.args.includes('--json'))?.stderr.split('\n').find((l) => l.startsWith('{'));
      if (jsonLine) {
        const p = JSON.parse(jsonLine) as { panic: string; goroutine: string; scheduleOp: number; causalChain: string[] };
        assert.deepEqual(j.panic, { message: p.panic, thread: p.goroutine, op: p.scheduleOp });
        assert.deepEqual(j.causalChain, p.causalChain);
      } else {
        assert.equal(j.panic, null);
      }
      const v = /replay-verify: schedule (\d+)\/(\d+) ops, io-underrun=(yes|no), boundary=(\S+) -> (\w+)/.exec(replays.find((x) => x.args.includes('--verify'))?.stderr ?? '');
      if (v) assert.deepEqual(j.verify, { scheduleDone: Number(v[1]), scheduleTotal: Number(v[2]), ioUnderrun: v[3] === 'yes', boundary: v[4], verdict: v[5] });
      else assert.equal(j.verify, null);
    });

    const print = replays.find((x) => x.args.includes('--print'));
    if (!print) continue;
    const probes = [...print.stderr.matchAll(/^probe (\S+) (\S+) = (.*) @op(\d+)$/gm)];
    // Two variables per program keep the run short; every value of each is compared.
    const names = [...new Set(probes.map((m) => m[2]))].slice(0, 2);
    for (const name of names) {
      it(`${d}: history ${name} --json equals machin replay --print`, () => {
        const r = run(['history', file, name, '--json']);
        assert.equal(r.code, 0, r.stderr);
        const j = JSON.parse(r.stdout) as { entries: Array<{ op: number; goroutine: string; value: string }> };
        const want = probes.filter((m) => m[2] === name).map((m) => ({ op: Number(m[4]), goroutine: m[1], value: m[3] }));
        assert.deepEqual(j.entries, want);
      });
    }
  }
});
