// A long agent session: 1,000 tool calls over a trace and a capsule, with the server's memory
// steady (resident size after the first 200 calls against after all 1,000), at most a bounded
// number of recordings held, and the capsule key in no answer, error or stderr line.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HeldRecordings } from '../../mcp-server/held-recordings';
import { registerTools } from '../../mcp-server/tools';
import { MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';
import { FIXTURE_KEY } from '../tcap/support/seal';
import { cleanEnv, MACHIN, McpSession } from './support';

const CRASH = join(MACHIN_FIXTURES, 'crash', 'crash.mflrr');
const ORDERS = join(TIN_FIXTURES, 'orders-panic.tcap');
const DECLINED = join(TIN_FIXTURES, 'checkout-declined.tcap');
const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-session-'));
after(() => rmSync(DIR, { recursive: true, force: true }));

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

/** The key as hex (both cases) and base64: none may appear anywhere. */
const KEY_FORMS = [FIXTURE_KEY, FIXTURE_KEY.toUpperCase(), Buffer.from(FIXTURE_KEY, 'hex').toString('base64')];

describe('MCP server: a session of 1,000 calls', () => {
  it('answers every call, memory stays steady, no key in any answer', async (t) => {
    const s = await McpSession.start(['--toolchain', '--machin', MACHIN], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    const texts: string[] = [];
    let calls = 0;
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await s.call(name, args);
      calls++;
      texts.push(r.text);
      return r;
    };
    try {
      texts.push(JSON.stringify(await s.client.listTools()));
      const trace = (await call('open_recording', { path: CRASH })).json.recording;
      const capsule = (await call('open_recording', { path: ORDERS })).json.recording;
      const declined = (await call('open_recording', { path: DECLINED })).json.recording;
      // One round: every tool at least once over the course of a few rounds, errors included.
      const round = async (i: number) => {
        const h = i % 2 === 0 ? trace : capsule;
        switch (i % 10) {
          case 0: return call('move', { recording: h, action: i % 20 === 0 ? 'step_in' : 'step_back_in' });
          case 1: return call('get_state', { recording: h, position: i % 4 });
          case 2: return call('variable_history', { recording: trace, variable: 'idx' });
          case 3: return call('move', { recording: h, action: 'continue', until: { condition: 'op >= 1' } });
          case 4: return call('list_records', { recording: h, limit: 5, detail: true });
          case 5: return call('find_value_change', { recording: trace, variable: 'idx', thread: '0', direction: i % 3 ? 'backward' : 'forward', position: i % 5 });
          case 6: return call('test_secret', { recording: declined, candidate: i % 3 ? 'Bearer s3cr3t-token' : `guess-${i}` });
          case 7: return call('causal_chain', { recording: h });
          case 8: return call('move', { recording: h, action: 'to_panic' });
          default: return call('get_state', { recording: h, position: 99 }); // an error, on purpose
        }
      };
      let i = 0;
      for (; i < 200; i++) await round(i);
      const pid = s.transport.pid!;
      const early = rssKb(pid);
      while (calls < 1000) await round(i++);
      const late = rssKb(pid);
      assert.equal(calls, 1000);
      const grewMb = (late - early) / 1024;
      t.diagnostic(`resident size after 200 calls ${(early / 1024).toFixed(1)} MB, after 1,000 ${(late / 1024).toFixed(1)} MB`);
      assert.ok(grewMb < 32, `resident size grew ${grewMb.toFixed(1)} MB over 800 calls (${(early / 1024).toFixed(0)} → ${(late / 1024).toFixed(0)} MB)`);
      // Errors stayed errors, answers stayed answers.
      assert.ok(texts.filter((t) => /past the end/.test(t)).length >= 90);
      assert.ok(texts.filter((t) => t.includes('"matches":[{')).length >= 60);
      // The key is in no answer, error or log line.
      const all = texts.join('\n') + s.stderr();
      for (const k of KEY_FORMS) assert.ok(!all.includes(k), 'the capsule key appears in an answer');
      assert.ok(!all.includes('s3cr3t-token'), 'a candidate secret is echoed');
    } finally {
      await s.close();
    }
  });

  it('the same tools in-process: the heap after a full GC does not grow over 1,000 calls', async (t) => {
    // Resident size above also counts garbage not yet collected; this counts what is kept.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const server = new McpServer({ name: 'frozen-run', version: 'test' });
    registerTools(server, new HeldRecordings({ machinPath: MACHIN, env: cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }) }), true);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'frozen-run-tests', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const tools = ['get_state', 'variable_history', 'list_records', 'move', 'test_secret', 'causal_chain'];
      const args = (n: string, i: number): Record<string, unknown> =>
        n === 'get_state' ? { recording: CRASH, position: i % 4 }
        : n === 'variable_history' ? { recording: CRASH, variable: 'idx' }
        : n === 'list_records' ? { recording: ORDERS, detail: true }
        // Back and forth (a step forward past the last effect is refused, as the debugger refuses it).
        : n === 'move' ? { recording: ORDERS, action: Math.floor(i / tools.length) % 2 ? 'step_back_in' : 'step_in' }
        : n === 'test_secret' ? { recording: DECLINED, candidate: `guess-${i}` }
        : { recording: CRASH };
      const heapAfter = async (from: number, to: number) => {
        for (let i = from; i < to; i++) {
          const n = tools[i % tools.length];
          const r = await client.callTool({ name: n, arguments: args(n, i) });
          assert.ok(!r.isError, `${n}: ${JSON.stringify(r.content)}`);
        }
        gc();
        return process.memoryUsage().heapUsed / 1e6;
      };
      const early = await heapAfter(0, 200);
      const late = await heapAfter(200, 1000);
      t.diagnostic(`heap after GC: ${early.toFixed(2)} MB after 200 calls, ${late.toFixed(2)} MB after 1,000`);
      assert.ok(late - early < 2, `the heap kept ${(late - early).toFixed(2)} MB more over 800 calls`);
    } finally {
      await client.close();
    }
  });

  it('holds at most 8 recordings: the least recently used is let go', async () => {
    const s = await McpSession.start();
    try {
      const handles: string[] = [];
      for (let n = 0; n < 10; n++) {
        const copy = join(DIR, `copy-${n}.mflrr`);
        copyFileSync(CRASH, copy);
        handles.push((await s.ok('open_recording', { path: copy })).recording);
      }
      assert.match(await s.error('get_state', { recording: handles[0] }), /no open recording/);
      assert.match(await s.error('get_state', { recording: handles[1] }), /no open recording/);
      assert.equal((await s.ok('get_state', { recording: handles[9] })).atStart, true);
      // By path it is opened again.
      assert.equal((await s.ok('get_state', { recording: join(DIR, 'copy-0.mflrr') })).atStart, true);
    } finally {
      await s.close();
    }
  });
});
