// Every capsule in fixtures/tin against its .expect.json: every field, every effect, tasks, the
// select site and arm, the secret check, and the errors for the tampered and unknown-kind ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingError } from '../../replay-engine/model/errors';
import { capsuleInspectJson } from '../../replay-engine/tcap/inspect';
import { openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import { checkSecret } from '../../replay-engine/tcap/secret';
import { fixtureCapsules, type Expected } from './support/fixtures';

interface InspectJson {
  format: string;
  envelope: number;
  schema: number;
  tin: string;
  program: string;
  wall: string;
  core: number;
  status: number;
  flags: number;
  panicked: boolean;
  sampled: boolean;
  request: { raw: string; rawHex: string; method: string; target: string; version: string; headers: Array<{ name: string; value: string; secret: boolean }> };
  panic: string;
  peer: string | null;
  threads: Array<{ id: string; task: number; label: string }>;
  tasks: number[];
  effectCount: number;
  effects: Array<{ seq: number; kind: string; key: string; outcome: string; ident: number; thread: number; dataHex: string; decoded: { key: { text: string }; result?: { text: string }; fault?: { text: string } } }>;
}

function checkHeader(json: InspectJson, e: Expected): void {
  assert.equal(json.format, 'tcap');
  assert.equal(json.envelope, 1);
  assert.equal(json.schema, e.schema);
  assert.equal(json.tin, e.tin);
  assert.equal(json.program, e.program);
  assert.equal(json.wall, e.wallExact, 'wall, exact digits');
  assert.equal(json.core, e.core);
  assert.equal(json.status, e.status);
  assert.equal(json.flags, e.flags);
  assert.equal(json.panicked, e.panicked);
  assert.equal(json.sampled, e.sampled);
  assert.equal(json.request.raw, e.request);
  assert.equal(json.request.rawHex, Buffer.from(e.request, 'utf8').toString('hex'));
  assert.equal(json.panic, e.panic);
  assert.equal(json.peer, e.peer);
}

describe('tcap fixtures', () => {
  for (const { name, capsule, expected } of fixtureCapsules()) {
    it(`${name}: ${expected.error ? `refused: ${expected.error}` : 'every field and effect'}`, async () => {
      if (expected.error) {
        await assert.rejects(openCapsuleFile(capsule, { keyHex: expected.key, env: {} }), (err: unknown) => {
          assert.ok(err instanceof RecordingError);
          assert.ok(err.message.includes(expected.error!), err.message);
          assert.ok(err.message.startsWith(capsule), 'the message names the file');
          return true;
        });
        return;
      }
      const rec = await openCapsuleFile(capsule, { keyHex: expected.key, env: {} });
      const json = capsuleInspectJson(rec) as InspectJson;
      checkHeader(json, expected);
      const count = expected.effect_count ?? expected.effects.length;
      assert.equal(json.effectCount, count);
      assert.equal(json.effects.length, count);
      assert.equal(rec.timeline.recordCount, count);
      assert.equal(rec.timeline.stepCount, count, 'every effect is a step');
      for (const want of expected.effects) {
        const got = json.effects[want.seq];
        assert.deepEqual(
          { seq: got.seq, kind: got.kind, key: got.key, outcome: got.outcome, ident: got.ident, data_hex: got.dataHex },
          want,
          `effect ${want.seq}`,
        );
        assert.equal(Buffer.from(rec.timeline.payload(want.seq)).toString('hex'), want.data_hex, 'timeline payload = data');
        assert.equal(rec.timeline.kindName(want.seq), want.kind);
      }
      if (expected.tasks) assert.deepEqual(json.tasks, expected.tasks);
      else assert.deepEqual(json.tasks, [0], 'no scheduling records: one task');
      assert.equal(json.threads[0].id, '0');
      assert.equal(json.threads[0].label, 'request');
      if (expected.select_site) {
        const r = json.effects.findIndex((x) => x.kind === 'sched.select@1');
        assert.equal(json.effects[r].key, expected.select_site);
        assert.equal(json.effects[r].decoded.result?.text, `arm ${expected.select_arm}`);
      }
      if (expected.secret) {
        const check = checkSecret(rec, expected.secret.text);
        assert.deepEqual(check.matches.map((m) => m.handle), [expected.secret.handle]);
        assert.equal(check.matches[0].where, 'request header Authorization');
        assert.equal(checkSecret(rec, `${expected.secret.text}x`).matches.length, 0);
        const header = json.request.headers.find((h) => h.name === 'Authorization');
        assert.deepEqual(header, { name: 'Authorization', value: expected.secret.handle, secret: true });
      }
      // The decoded document has one line per effect, at the timeline's line for it.
      const lines = rec.decodedDocument().split('\n');
      for (let r = 0; r < Math.min(count, 50); r++) {
        assert.ok(lines[rec.timeline.lineOf(r) - 1].startsWith(`#${r} task ${json.effects[r].thread}  ${json.effects[r].kind}`), lines[rec.timeline.lineOf(r) - 1]);
      }
      assert.equal(rec.timeline.recordAtLine(rec.timeline.lineOf(count - 1)), count - 1);
    });
  }

  it('orders-panic: tasks follow the resumes, the panic is the capsule\'s, the select site resolves in the roots', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'tcap-roots-'));
    mkdirSync(join(root, 'src', 'shop'), { recursive: true });
    writeFileSync(join(root, 'src', 'shop', 'orders.tin'), 'x\n'.repeat(50));
    const fx = fixtureCapsules().find((f) => f.name === 'orders-panic')!;
    const rec = await openCapsuleFile(fx.capsule, { keyHex: fx.expected.key, env: {}, programRoots: [root] });
    const taskOf = Array.from({ length: rec.timeline.recordCount }, (_, r) => rec.task(r));
    assert.deepEqual(taskOf, [0, 0, 0, 0, 1, 1, 2, 2, 0, 0, 0, 0]);
    assert.deepEqual(rec.timeline.threads.map((t) => `${t.id}/${t.label}`), ['0/request', '1/task 1', '2/task 2']);
    assert.equal(rec.panic?.message, fx.expected.panic);
    assert.equal(rec.panic?.position, rec.timeline.stepCount);
    assert.equal(rec.panic?.source, 'capsule');
    assert.deepEqual(rec.sourceLocation(9), { path: join(root, 'src', 'shop', 'orders.tin'), line: 42, name: 'select orders.tin:42' });
    assert.equal(rec.sourceLocation(7), undefined);
    const view = rec.describe(10);
    assert.equal(view.kind, 'sched.cancel@1');
    assert.equal(view.position, 11);
    assert.match(view.summary, /within boundary of task 1 → cancelled: deadline exceeded \(sentinel 2\)/);
    assert.match(rec.describe(11).summary, /2023-11-14T22:13:20\.987654321Z \(1700000000987654321 ns\)/);
  });

  it('orders-panic: value histories from the request and the effects\' results', async () => {
    const fx = fixtureCapsules().find((f) => f.name === 'orders-panic')!;
    const rec = await openCapsuleFile(fx.capsule, { keyHex: fx.expected.key, env: {} });
    const h = rec.histories!;
    assert.deepEqual(h.entries('request.method'), [{ thread: 0, position: 0, value: 'GET' }]);
    assert.deepEqual(h.entries('redis INCR hits:orders'), [{ thread: 2, position: 8, value: '41' }]);
    assert.deepEqual(h.entries('tide.now'), [{ thread: 0, position: 2, value: '88000111222' }]);
    assert.deepEqual(h.entries('sched.resume').map((e) => e.value), ['task 0', 'task 1', 'task 2', 'task 0']);
    assert.equal(h.valueAt('redis INCR hits:orders', 2, 7), undefined);
    assert.equal(h.valueAt('redis INCR hits:orders', 2, 8), '41');
    assert.ok(h.names.includes('tide.wall'));
  });
});
