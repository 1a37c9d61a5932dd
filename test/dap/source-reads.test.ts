// The served text of a trace, with the session in this process (as the extension runs it inline)
// so the file reads can be counted: two source requests at once share one read of the trace
// (one copy of a 100 MB text, not two), and a later request reads it again (the session holds no
// copy between requests). Also: the `trace` attribute logs the protocol, but never a key.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { FrozenRunSession } from '../../debug-adapter/session';
import { FIXTURE_KEY, MACHIN_FIXTURES } from './support';

const TRACE = path.join(MACHIN_FIXTURES, 'reader/reader.mflrr');

/** The session driven through its inline interface (handleMessage / onDidSendMessage). */
function inProcess() {
  const session = new FrozenRunSession({});
  const sent: DebugProtocol.ProtocolMessage[] = [];
  const listeners: Array<(m: DebugProtocol.ProtocolMessage) => void> = [];
  session.onDidSendMessage((m) => {
    sent.push(m as DebugProtocol.ProtocolMessage);
    for (const l of [...listeners]) l(m as DebugProtocol.ProtocolMessage);
  });
  let seq = 1;
  const next = <T extends DebugProtocol.ProtocolMessage>(match: (m: DebugProtocol.ProtocolMessage) => boolean): Promise<T> =>
    new Promise((resolve) => {
      const l = (m: DebugProtocol.ProtocolMessage) => {
        if (!match(m)) return;
        listeners.splice(listeners.indexOf(l), 1);
        resolve(m as T);
      };
      listeners.push(l);
    });
  const request = (command: string, args?: unknown): Promise<DebugProtocol.Response> => {
    const id = seq++;
    const answered = next<DebugProtocol.Response>((m) => m.type === 'response' && (m as DebugProtocol.Response).request_seq === id);
    session.handleMessage({ seq: id, type: 'request', command, arguments: args } as DebugProtocol.Request);
    return answered;
  };
  const event = (name: string) => next<DebugProtocol.Event>((m) => m.type === 'event' && (m as DebugProtocol.Event).event === name);
  const launch = async (args: Record<string, unknown>) => {
    await request('initialize', { adapterID: 'frozen-run', linesStartAt1: true, columnsStartAt1: true });
    const stopped = event('stopped');
    const initialized = event('initialized').then(() => request('configurationDone'));
    const launched = await request('launch', args);
    assert.equal(launched.success, true, launched.message);
    await initialized;
    await stopped;
  };
  return { session, sent, request, launch };
}

/** Counts opens of `file` through node:fs/promises (each read of the served text opens it once). */
function countReads(file: string): { count: () => number; restore: () => void } {
  const fsp = createRequire(__filename)('node:fs/promises') as { open: (...a: unknown[]) => Promise<unknown> };
  const original = fsp.open;
  let n = 0;
  fsp.open = (...a: unknown[]) => {
    if (a[0] === file) n++;
    return original(...a);
  };
  return { count: () => n, restore: () => (fsp.open = original) };
}

test('two source requests at once share one read of the trace; a later one reads it again', async () => {
  const dap = inProcess();
  await dap.launch({ recording: TRACE, stopOnEntry: true, noToolchain: true });
  const reads = countReads(TRACE);
  try {
    const ask = () => dap.request('source', { source: { sourceReference: 1 }, sourceReference: 1 });
    const [a, b] = await Promise.all([ask(), ask()]);
    const file = readFileSync(TRACE, 'utf8');
    assert.equal(a.body.content, file);
    assert.equal(b.body.content, file);
    assert.equal(a.body.mimeType, 'text/x-mflrr');
    assert.equal(reads.count(), 1, 'two requests at once read the trace more than once');
    assert.equal((await ask()).body.content, file);
    assert.equal(reads.count(), 2, 'the session kept the text instead of reading it again');
  } finally {
    reads.restore();
    dap.session.dispose();
  }
});

test('with `trace` the protocol is logged to the Debug Console, a key and the served text never', async () => {
  const dap = inProcess();
  await dap.launch({ recording: TRACE, stopOnEntry: true, noToolchain: true, trace: true });
  try {
    const key = await dap.request('frozenRun/setKey', { keyHex: FIXTURE_KEY });
    assert.equal(key.success, true);
    await dap.request('source', { source: { sourceReference: 1 }, sourceReference: 1 });
    await dap.request('threads');
    await new Promise((r) => setTimeout(r, 50)); // the logger writes asynchronously
    const logged = dap.sent
      .filter((m): m is DebugProtocol.OutputEvent => m.type === 'event' && (m as DebugProtocol.Event).event === 'output')
      .map((e) => e.body.output)
      .join('');
    assert.match(logged, /From client: threads/, 'no protocol log with trace on');
    assert.match(logged, /frozenRun\/setKey\(<not logged>\)/);
    assert.ok(!logged.toLowerCase().includes(FIXTURE_KEY), 'the key reached the protocol log');
    assert.ok(!logged.includes(readFileSync(TRACE, 'utf8').split('\n')[3]), 'the served text reached the protocol log');
  } finally {
    dap.session.dispose();
  }
});

test('without `trace` nothing of the protocol is logged', async () => {
  const dap = inProcess();
  await dap.launch({ recording: TRACE, stopOnEntry: true, noToolchain: true });
  try {
    await dap.request('threads');
    await new Promise((r) => setTimeout(r, 50));
    const logged = dap.sent.filter((m) => m.type === 'event' && (m as DebugProtocol.Event).event === 'output').map((e) => (e as DebugProtocol.OutputEvent).body.output);
    assert.ok(!logged.some((o) => /From client|To client/.test(o)), logged.join(''));
  } finally {
    dap.session.dispose();
  }
});
