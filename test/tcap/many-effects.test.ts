// A capsule of many small effects, large enough (> 2 MB) that it is read into shared memory and
// decrypted on two threads, opened the way a user opens it: the CLI's summary and its streamed
// `inspect --json` (every effect, in order, exact), a reader that stops early, a wrong key, and
// the file left as it was.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCli } from '../engine/build-cli';
import { REPO_ROOT } from '../support/paths';
import { openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import { BodyWriter, buildBody, randomKeyHex, seal, type EffectSpec } from './support/seal';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const COUNT = 60_000;

/** Clock reads and task switches over 3 tasks, a Redis call every 8th, a fault every 1000th. */
function effects(): EffectSpec[] {
  const list: EffectSpec[] = [];
  let task = 0;
  for (let i = 0; i < COUNT; i++) {
    if (i % 4 === 0) list.push({ kind: 'sched.resume@1', data: new BodyWriter().word((task = (task + 1) % 3)).toBytes() });
    else if (i % 1000 === 999) list.push({ kind: 'wire.read@1', key: '1 512', outcome: 1, ident: 2, data: 'EOF' });
    else if (i % 8 === 7) list.push({ kind: 'redis@1', key: `3:GET 5:k:${i % 100}`.slice(0, 12) + '\n', data: `$${String(i).length}\r\n${i}\r\n` });
    else list.push({ kind: 'tide.now@1', data: new BodyWriter().word(1_000_000 + i).toBytes() });
  }
  // Large enough to be shared between two threads: one big file read in the middle.
  list[COUNT / 2] = { kind: 'quarry.read@1', key: '/srv/big.bin', data: 'z'.repeat(2_500_000) };
  return list;
}

describe('a capsule of many small effects', () => {
  let dir = '';
  let file = '';
  let keyHex = '';
  let list: EffectSpec[] = [];
  const env = () => ({ ...process.env, TIN_REPLAY_KEY: keyHex });
  before(async () => {
    await buildCli();
    dir = mkdtempSync(join(tmpdir(), 'frozen-run-many-'));
    keyHex = randomKeyHex();
    list = effects();
    file = join(dir, 'chatty.tcap');
    writeFileSync(file, seal(buildBody({ effects: list }), keyHex));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('opens with every effect on its task, from a file that is left unchanged', async () => {
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    const rec = await openCapsuleFile(file, { keyHex, env: {} });
    assert.equal(rec.timeline.recordCount, COUNT);
    assert.deepEqual(rec.timeline.threads.map((t) => t.id), ['0', '1', '2'], 'the request task first, then in order of first resume');
    for (const r of [0, 1, 7, 999, COUNT / 2, COUNT - 1]) {
      assert.equal(rec.timeline.kindName(r), list[r].kind, `kind of ${r}`);
      assert.equal(Buffer.from(rec.data(r)).toString('latin1'), Buffer.from(list[r].data as Uint8Array | string).toString('latin1'), `data of ${r}`);
      assert.equal(rec.outcome(r), list[r].outcome ?? 0);
    }
    assert.equal(rec.task(4), 2);
    assert.equal(createHash('sha256').update(readFileSync(file)).digest('hex'), before, 'the file is never written');
  });

  it('hundreds of tasks, some numbered in the millions: every effect on the task its last resume switched in', () => {
    // 700 tasks (threads beyond one byte), numbers up to 9,000,000 (beyond the scan's small table),
    // revisited out of order; the tasks' threads in order of first resume, the request's first.
    const tasks = Array.from({ length: 700 }, (_, j) => (j % 3 === 0 ? 9_000_000 - j : j % 3 === 1 ? 4096 + j : j + 1));
    const spec: EffectSpec[] = [];
    const want: number[] = [];
    let task = 0;
    for (let i = 0; i < 6000; i++) {
      if (i % 3 === 0) {
        task = tasks[(i * 7919) % tasks.length];
        spec.push({ kind: 'sched.resume@1', data: new BodyWriter().word(task).toBytes() });
      } else spec.push({ kind: 'tide.now@1', data: new BodyWriter().word(i).toBytes() });
      want.push(task);
    }
    const many = join(dir, 'many-tasks.tcap');
    writeFileSync(many, seal(buildBody({ effects: spec }), keyHex));
    return openCapsuleFile(many, { keyHex, env: {} }).then((rec) => {
      const firstSeen = [0, ...new Set(want.filter((t) => t !== 0))];
      assert.deepEqual(rec.timeline.threads.map((t) => Number(t.id)), firstSeen);
      assert.ok(rec.timeline.threads.length > 256);
      for (let r = 0; r < want.length; r++) if (rec.task(r) !== want[r]) assert.fail(`effect ${r}: task ${rec.task(r)}, want ${want[r]}`);
      // The scan's counts by kind and thread: as a count of the records themselves.
      const counts = rec.effectCounts();
      const byThread = new Map<number, number>();
      for (const t of want) byThread.set(t, (byThread.get(t) ?? 0) + 1);
      assert.deepEqual(Array.from(counts.byThread), rec.timeline.threads.map((t) => byThread.get(Number(t.id)) ?? 0));
      assert.deepEqual(Array.from(counts.byKind), rec.timeline.kinds.map((k) => spec.filter((e) => e.kind === k).length));
    });
  });

  it('inspect --json streams every effect, exact and in order', () => {
    const r = spawnSync(process.execPath, [CLI, 'inspect', file, '--json'], { env: env(), encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { effectCount: number; effects: Array<{ seq: number; kind: string; thread: number; outcome: string; ident: number; dataHex: string; decoded: Record<string, { text: string }> }> };
    assert.equal(j.effectCount, COUNT);
    assert.equal(j.effects.length, COUNT);
    j.effects.forEach((e, i) => assert.equal(e.seq, i));
    assert.equal(j.effects[1].decoded.result.text, '1000001 ns (1.000 ms on the monotonic clock)');
    assert.equal(j.effects[999].outcome, 'fault');
    assert.equal(j.effects[999].decoded.fault.text, 'fault: EOF (sentinel 2)');
    assert.equal(j.effects[COUNT / 2].dataHex.length, 5_000_000, 'large data in full');
    assert.equal(j.effects[8].thread, 0);
    assert.ok(!r.stdout.includes(keyHex));
  });

  it('a reader that stops early ends the output quietly', async () => {
    const child = spawn(process.execPath, [CLI, 'inspect', file, '--json'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
  });

  it('a wrong key is the one clear error, the worker left idle', () => {
    const r = spawnSync(process.execPath, [CLI, 'inspect', file], { env: { ...process.env, TIN_REPLAY_KEY: randomKeyHex() }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /capsule: wrong key or damaged/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  });
});
