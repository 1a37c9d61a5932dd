// Random capsules written by the test helper (a separate implementation of the format) under
// random keys, read back through inspect JSON: every header field and every effect (kind, key,
// outcome, ident, data, task) must match what was written, whatever the bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { KNOWN_KINDS } from '../../replay-engine/tcap/format';
import { capsuleInspectJson } from '../../replay-engine/tcap/inspect';
import { openCapsuleBytes } from '../../replay-engine/tcap/read-capsule';
import { buildBody, seal, word, type EffectSpec } from './support/seal';

const kinds = [...KNOWN_KINDS].filter((k) => k !== 'sched.resume@1');
const bytes = (max: number) => fc.uint8Array({ maxLength: max });
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const strict = new TextDecoder('utf-8', { fatal: true });

function asText(b: Uint8Array): { text: string; exact: boolean } {
  try {
    return { text: strict.decode(b), exact: true };
  } catch {
    return { text: Buffer.from(b).toString('utf8'), exact: false };
  }
}

const effect: fc.Arbitrary<EffectSpec & { task?: number }> = fc.oneof(
  fc.record({ kind: fc.constantFrom(...kinds), key: bytes(40), outcome: fc.integer({ min: 0, max: 1 }), ident: fc.integer({ min: 0, max: 6 }), data: bytes(60) }),
  fc.integer({ min: 0, max: 5 }).map((task) => ({ kind: 'sched.resume@1', key: new Uint8Array(0), outcome: 0, ident: 0, data: word(task), task })),
);

const capsule = fc.record({
  schema: fc.constantFrom(1, 2),
  tin: bytes(12),
  program: bytes(30),
  wall: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  core: fc.integer({ min: 0, max: 4096 }),
  status: fc.integer({ min: 100, max: 599 }),
  flags: fc.integer({ min: 0, max: 3 }),
  request: bytes(80),
  panic: bytes(30),
  peer: bytes(24),
  effects: fc.array(effect, { maxLength: 25 }),
  key: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  nonce: fc.uint8Array({ minLength: 16, maxLength: 16 }),
});

describe('tcap round trip', () => {
  it('random capsules under random keys: every field and effect as written', () => {
    fc.assert(
      fc.property(capsule, (c) => {
        const keyHex = hex(c.key);
        const file = seal(buildBody(c), keyHex, c.nonce);
        const rec = openCapsuleBytes(file, '/tmp/random.tcap', { keyHex, env: {} });
        const j = capsuleInspectJson(rec) as Record<string, any>;
        assert.equal(j.schema, c.schema);
        assert.equal(j.wall, c.wall.toString());
        assert.equal(j.core, c.core);
        assert.equal(j.status, c.status);
        assert.equal(j.flags, c.flags);
        assert.equal(j.panicked, (c.flags & 1) === 1);
        assert.equal(j.sampled, (c.flags & 2) === 2);
        for (const [name, value] of [['tin', c.tin], ['program', c.program], ['panic', c.panic]] as const) {
          const t = asText(value);
          assert.equal(j[name], t.text);
          if (!t.exact) assert.equal(j[`${name}Hex`], hex(value));
        }
        assert.equal(j.request.rawHex, hex(c.request));
        if (c.schema === 1) assert.equal(j.peer, null);
        else assert.equal(j.peer, asText(c.peer).text);
        let task = 0;
        const tasks = new Set([0]);
        assert.equal(j.effects.length, c.effects.length);
        c.effects.forEach((e, i) => {
          if (e.task !== undefined) task = e.task;
          tasks.add(task);
          const got = j.effects[i];
          const key = asText(e.key as Uint8Array);
          assert.equal(got.seq, i);
          assert.equal(got.kind, e.kind);
          assert.equal(got.key, key.text);
          assert.equal(got.keyHex, key.exact ? undefined : hex(e.key as Uint8Array));
          assert.equal(got.outcome, e.outcome === 1 ? 'fault' : 'result');
          assert.equal(got.ident, e.ident);
          assert.equal(got.dataHex, hex(e.data as Uint8Array));
          assert.equal(got.thread, task);
          assert.equal(typeof got.decoded.key.text, 'string');
        });
        assert.deepEqual(new Set(j.tasks), tasks);
        // The document: one line per effect, and nothing else on those lines.
        const lines = rec.decodedDocument().split('\n');
        c.effects.forEach((_, i) => assert.ok(lines[rec.timeline.lineOf(i) - 1].startsWith(`#${i} task `)));
        assert.equal(lines.length, rec.timeline.firstRecordLine - 1 + c.effects.length + 1, 'no line breaks inside a line');
      }),
      { numRuns: 300 },
    );
  });

  it('and the same capsule under any other key is refused', () => {
    fc.assert(
      fc.property(capsule, fc.uint8Array({ minLength: 32, maxLength: 32 }), (c, other) => {
        fc.pre(hex(other) !== hex(c.key));
        const file = seal(buildBody(c), hex(c.key), c.nonce);
        assert.throws(() => openCapsuleBytes(file, '/tmp/random.tcap', { keyHex: hex(other), env: {} }), /capsule: wrong key or damaged/);
      }),
      { numRuns: 50 },
    );
  });
});
