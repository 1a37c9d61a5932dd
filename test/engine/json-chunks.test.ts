// The streamed JSON writer: a document with sequences parses to the same value as the document
// with arrays, in chunks of bounded size, with one line per sequence item.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonChunks, JsonSequence, jsonText } from '../../replay-engine/json-chunks';

describe('jsonChunks', () => {
  it('writes sequences item by item, and the whole parses to the plain document', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => ({ seq: i, text: `line "${i}"\n`, nested: { a: [i, null, true] } }));
    const doc = { format: 'x', empty: new JsonSequence(0, () => 'never'), inner: { list: new JsonSequence(items.length, (i) => JSON.stringify(items[i])), n: 1 }, skip: undefined, tail: [1, 2] };
    let biggest = 0;
    let text = '';
    for (const chunk of jsonChunks(doc)) {
      biggest = Math.max(biggest, chunk.length);
      text += chunk;
    }
    assert.deepEqual(JSON.parse(text), { format: 'x', empty: [], inner: { list: items, n: 1 }, tail: [1, 2] });
    assert.ok(biggest < 70_000, `a chunk is about 64 KiB, got ${biggest}`);
    assert.equal(text.split('\n').filter((l) => l.trimStart().startsWith('{"seq":')).length, items.length, 'one line per item');
  });

  it('a document without sequences is the same as JSON.stringify with two spaces', () => {
    const doc = { a: 1, b: { c: ['x', { d: null }] }, e: 'é\u2028' };
    assert.equal(jsonText(doc), `${JSON.stringify(doc, null, 2)}\n`);
  });
});
