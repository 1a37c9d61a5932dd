// Variables a `select` case binds (issue 29, point 6), over DAP with the real machin 0.137.0:
// machin's `--print` probes no select-bound name, so the instrumented replay copies them where
// the case's body starts. At the balancer's panic (share divides by the weight 0), the
// balancer's frame shows `nw = 0` (where the zero came from) and `r = 76` (the last result), and
// the note for what has no value names its variables, not a bare "(no value)".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { recordProgram, type Recorded } from '../support/machin';
import { BALANCER } from '../support/programs';
import { tempDir } from '../machin/support';
import { buildAdapter, launchAndStop, machinEnv, startAdapter, type Session } from './support';

let rec: Recorded;
before(async () => {
  await buildAdapter();
  rec = recordProgram(tempDir('dap-select-'), 'balancer', BALANCER);
});

async function statementsIn(s: Session): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (s.events.filter((e) => e.event === 'frozenRun/toolchain' && e.body.state === 'done').length >= 2) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the statements never came: ${s.output.join('')}`);
}

async function programScope(s: Session, frame: DebugProtocol.StackFrame): Promise<DebugProtocol.Variable[]> {
  const scope = (await s.dc.scopesRequest({ frameId: frame.id })).body.scopes.find((x) => x.name.startsWith('Program ('))!;
  return (await s.dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
}

describe('select-bound variables', () => {
  let s: Session;
  after(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  test('at the divide by zero, the balancer frame shows the weight nw = 0 and the result r it took last', async () => {
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: rec.trace, replayToPanic: true, timeLimitSeconds: 60 });
    await statementsIn(s);
    const thread = (await s.dc.threadsRequest()).body.threads.find((t) => t.name.startsWith('0.2 '))!;
    const frames = (await s.dc.stackTraceRequest({ threadId: thread.id })).body.stackFrames;
    assert.deepEqual(frames.slice(0, 3).map((f) => `${f.name} ${f.line}:${f.column}`), ['share 1:24', 'report 2:25', 'balancer 13:9']);
    const vars = await programScope(s, frames[2]);
    const values = Object.fromEntries(vars.map((v) => [v.name, v.value]));
    assert.equal(values.nw, '0', JSON.stringify(vars));
    assert.equal(values.r, '76', JSON.stringify(vars));
    assert.equal(values.w, '0');
    assert.equal(values.total, '298');
    // What has no value is named: the channels, with the reason.
    const note = vars.find((v) => v.type === 'note')!;
    assert.equal(note.name, '(no value: results, weights, done)');
    assert.match(note.value, /^machin --print prints only scalars and strings \(nothing for a slice, map, struct or channel\)/);
    assert.ok(!vars.some((v) => v.name === '(no value)'));
  });
});
