// Issue 19, point 8, over DAP: a capsule whose one effect is a pipeline of 200,000 Redis commands.
// The frame name is bounded, and the Variables view pages to any command in nested ranges of at
// most 100 rows, each expansion answered at once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildAdapter, FIXTURE_KEY, launchAndStop, noMachinEnv, startAdapter, type Session } from './support';
import { buildBody, seal } from '../tcap/support/seal';

before(buildAdapter);

const N = 200_000;

describe('a value of 200,000 parts over DAP', () => {
  let s: Session;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-dap-large-'));
    const key = Array.from({ length: N }, (_, i) => `3:GET ${`k:${i}`.length}:k:${i}\n`).join('');
    const file = path.join(dir, 'pipeline.tcap');
    writeFileSync(file, seal(buildBody({ effects: [{ kind: 'redis@1', key, data: '+OK\r\n' }] }), FIXTURE_KEY));
    s = await startAdapter(noMachinEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    // (a step onto a 200,000-part value takes seconds; beside the other test files, more than 20)
    s.dc.defaultTimeout = 60_000;
    await launchAndStop(s, { recording: file, stopOnEntry: true });
    const threadId = (await s.dc.threadsRequest()).body.threads[0].id;
    // (listening before asking: the stop may come before the answer to next)
    await Promise.all([s.dc.waitForEvent('stopped'), s.dc.nextRequest({ threadId })]);
  });
  after(async () => {
    await s.dc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const children = async (ref: number) => (await s.dc.variablesRequest({ variablesReference: ref })).body.variables;

  test('a bounded frame name, and paging down to the last command', async () => {
    const threadId = (await s.dc.threadsRequest()).body.threads[0].id;
    const frame = (await s.dc.stackTraceRequest({ threadId })).body.stackFrames[0];
    assert.ok(frame.name.length <= 500, `frame name of ${frame.name.length} chars`);
    assert.match(frame.name, /… \(200,000 commands\)/);
    const scopes = (await s.dc.scopesRequest({ frameId: frame.id })).body.scopes;
    const record = await children(scopes.find((x) => x.name === 'Record')!.variablesReference);
    const value = record.find((v) => v.name === 'value')!;
    const key = (await children(value.variablesReference)).find((v) => v.name === 'key')!;
    let level: DebugProtocol.Variable[] = await children(key.variablesReference);
    const names: string[] = [];
    // Always open the last range until the commands themselves are listed.
    while (level[level.length - 1].name.startsWith('[')) {
      assert.ok(level.length <= 100, `at most 100 rows an expansion, got ${level.length}`);
      names.push(level[level.length - 1].name);
      level = await children(level[level.length - 1].variablesReference);
    }
    assert.deepEqual(names, ['[190000 … 199999]', '[199900 … 199999]']);
    assert.equal(level[level.length - 1].name, 'command 200000');
    assert.equal(level[level.length - 1].value, 'GET k:199999');
  });
});

// Issue 31, point 3: Redis error and double replies of megabytes, and 64 nested arrays each of
// whose levels once repeated its subtree's text (2.4 MB values): every Variables value is cut at
// 400 characters (SECURITY.md), with the length of the whole text.
describe('huge and deeply nested Redis replies over DAP', () => {
  let s: Session;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-dap-huge-'));
    const level = (d: number): string => (d === 0 ? ':1\r\n' : `*3\r\n$100\r\n${'a'.repeat(100)}\r\n$100\r\n${'b'.repeat(100)}\r\n${level(d - 1)}`);
    const GET = '3:GET 6:cart:7\n';
    const file = path.join(dir, 'huge.tcap');
    writeFileSync(file, seal(buildBody({ effects: [
      { kind: 'redis@1', key: GET, data: `-ERR ${'x'.repeat(512 * 1024)}\r\n` },
      { kind: 'redis@1', key: GET, data: `,${'9'.repeat(256 * 1024)}\r\n` },
      { kind: 'redis@1', key: GET, data: level(63) },
    ] }), FIXTURE_KEY));
    s = await startAdapter(noMachinEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    await launchAndStop(s, { recording: file, stopOnEntry: true });
  });
  after(async () => {
    await s.dc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every value of every scope, at each effect and 70 levels down, is at most 400 characters and the cut', async () => {
    const threadId = (await s.dc.threadsRequest()).body.threads[0].id;
    let longest = 0;
    let seen = 0;
    let cuts = 0;
    for (let step = 0; step < 3; step++) {
      // Listen before asking: the stop can come before the answer to `next`.
      await Promise.all([s.dc.waitForEvent('stopped'), s.dc.nextRequest({ threadId })]);
      const frame = (await s.dc.stackTraceRequest({ threadId })).body.stackFrames[0];
      const queue = (await s.dc.scopesRequest({ frameId: frame.id })).body.scopes.map((x) => ({ ref: x.variablesReference, depth: 0 }));
      while (queue.length) {
        const { ref, depth } = queue.shift()!;
        for (const v of (await s.dc.variablesRequest({ variablesReference: ref })).body.variables) {
          seen++;
          longest = Math.max(longest, v.value.length);
          if (/… \(\d+ chars\)$/.test(v.value)) cuts++;
          if (v.variablesReference && depth < 70) queue.push({ ref: v.variablesReference, depth: depth + 1 });
        }
      }
    }
    assert.ok(seen > 200, `${seen} values`);
    assert.ok(cuts > 0, 'the megabyte values are cut');
    assert.ok(longest <= 400 + 64 + 24, `a value of ${longest} characters`);
  });
});
