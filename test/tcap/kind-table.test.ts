// The table of capsule kinds (replay-engine/tcap/decode/kinds.ts): one entry for every kind of
// formats/tcap.md and no other, each with all its parts, so that a kind added to the format but
// not to the table, or to the table without a decoder or a decision on its fast writers, fails.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CAPSULE_KINDS } from '../../replay-engine/tcap/decode/kinds';
import { KNOWN_KINDS } from '../../replay-engine/tcap/format';

/** The kinds named in the format document's table of effect kinds (`websocket.dial@1` / `.read@1` included). */
function documentKinds(): Set<string> {
  const doc = readFileSync(join(__dirname, '../../../shared/formats/tcap.md'), 'utf8');
  const kinds = new Set<string>();
  for (const line of doc.split('\n')) {
    const m = /^\| ([^|]+)\|/.exec(line);
    if (!m) continue;
    let family = '';
    for (const [, name] of m[1].matchAll(/`([a-z.]*@\d+)`/g)) {
      const full = name.startsWith('.') ? `${family}${name}` : name;
      family = full.slice(0, full.indexOf('.'));
      kinds.add(full);
    }
  }
  return kinds;
}

describe('table of capsule kinds', () => {
  it('has exactly the kinds of the format document, and the readers know those', () => {
    const fromDoc = documentKinds();
    assert.ok(fromDoc.size >= 25, `read ${fromDoc.size} kinds from formats/tcap.md`);
    assert.deepEqual(new Set(CAPSULE_KINDS.keys()), fromDoc);
    assert.deepEqual(KNOWN_KINDS, fromDoc);
  });

  for (const [name, kind] of CAPSULE_KINDS) {
    it(`${name} has a key and result decoder and says whether it has fast writers`, () => {
      assert.equal(typeof kind.key, 'function', 'key decoder');
      assert.equal(typeof kind.result, 'function', 'result decoder');
      for (const part of ['fastKey', 'fastResult'] as const) {
        assert.ok(part in kind, `${part} missing (null when the decoder's value is always written)`);
        const w = kind[part];
        assert.ok(w === null || typeof w === 'function', `${part} is a writer or null`);
      }
      // the decoders take any bytes, also none, without throwing
      assert.equal(typeof kind.key(new Uint8Array(0)).text, 'string');
      assert.equal(typeof kind.result(new Uint8Array(0), new Uint8Array(0)).text, 'string');
    });
  }
});
