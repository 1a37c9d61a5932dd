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
    await launchAndStop(s, { recording: file, stopOnEntry: true });
    const threadId = (await s.dc.threadsRequest()).body.threads[0].id;
    await s.dc.nextRequest({ threadId });
    await s.dc.waitForEvent('stopped');
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
