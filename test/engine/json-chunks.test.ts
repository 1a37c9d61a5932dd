// The streamed JSON writer: a document with sequences parses to the same value as the document
// with arrays, in chunks of bounded size, with one line per sequence item; items written as
// bytes give the same text as items given as strings; chunk buffers are reused once written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteSink, type ChunkTarget } from '../../replay-engine/byte-sink';
import { jsonUtf8String } from '../../replay-engine/json-bytes';
import { JsonSequence, jsonText, writeJson } from '../../replay-engine/json-chunks';

/** Writes the document through a target that copies each chunk and gives its buffer back at once or later. */
function written(doc: unknown, later = false): { text: string; biggest: number; buffers: number } {
  const parts: Buffer[] = [];
  const pending: Array<() => void> = [];
  const seen = new Set<ArrayBufferLike>();
  const target: ChunkTarget = {
    write(chunk, done) {
      if (typeof chunk !== 'string') seen.add(chunk.buffer);
      parts.push(Buffer.from(chunk));
      if (later) pending.push(done);
      else done();
    },
  };
  const sink = new ByteSink(target, 1 << 16);
  let biggest = 0;
  for (const _ of writeJson(doc, sink)) {
    // the caller's wait for the reader: buffers come back here
    for (const done of pending.splice(0)) done();
  }
  sink.flush();
  for (const p of parts) biggest = Math.max(biggest, p.length);
  return { text: Buffer.concat(parts).toString('utf8'), biggest, buffers: seen.size };
}

describe('writeJson', () => {
  const items = Array.from({ length: 50_000 }, (_, i) => ({ seq: i, text: `line "${i}"\n é \u2028 \u{1F600}`, nested: { a: [i, null, true] } }));
  const doc = (write?: (i: number, sink: ByteSink) => void) => ({
    format: 'x',
    empty: new JsonSequence(0, () => 'never'),
    inner: { list: new JsonSequence(items.length, (i) => JSON.stringify(items[i]), write), n: 1 },
    skip: undefined,
    tail: [1, 2],
  });

  it('writes sequences item by item, and the whole parses to the plain document', () => {
    for (const later of [false, true]) {
      const { text, biggest, buffers } = written(doc(), later);
      assert.deepEqual(JSON.parse(text), { format: 'x', empty: [], inner: { list: items, n: 1 }, tail: [1, 2] });
      assert.ok(biggest <= 1 << 16, `a chunk is at most 64 KiB, got ${biggest}`);
      assert.ok(buffers <= 3, `chunk buffers are reused: ${buffers}`);
      assert.equal(text.split('\n').filter((l) => l.trimStart().startsWith('{"seq":')).length, items.length, 'one line per item');
      assert.equal(text, jsonText(doc()));
    }
  });

  it('items written as bytes give the same text as items given as strings', () => {
    const bytes = items.map((x) => Buffer.from(x.text, 'utf8'));
    const write = (i: number, sink: ByteSink) => {
      sink.ascii('{"seq":');
      sink.uint(i);
      sink.ascii(',"text":');
      jsonUtf8String(sink, bytes[i]);
      sink.text(`,"nested":${JSON.stringify(items[i].nested)}}`);
    };
    assert.equal(written(doc(write)).text, written(doc()).text);
  });

  it('a document without sequences is the same as JSON.stringify with two spaces', () => {
    const plain = { a: 1, b: { c: ['x', { d: null }] }, e: 'é\u2028' };
    assert.equal(jsonText(plain), `${JSON.stringify(plain, null, 2)}\n`);
  });

  it('an item longer than a chunk, and text longer than a chunk, arrive whole', () => {
    const big = 'x"\n'.repeat(100_000);
    const d = { list: new JsonSequence(3, (i) => JSON.stringify(i === 1 ? big : i)), s: big };
    assert.deepEqual(JSON.parse(written(d, true).text), { list: [0, big, 2], s: big });
  });

  it('numbers, escapes and hex as JSON.stringify writes them', () => {
    const sink = new ByteSink({ write: () => undefined }, 1 << 16);
    const all = Buffer.from(Array.from({ length: 128 }, (_, c) => c));
    jsonUtf8String(sink, all);
    sink.ascii(' ');
    for (const v of [0, 9, 10, 99, 12345678901234, Number.MAX_SAFE_INTEGER, -1, -4294967296]) {
      sink.int(v);
      sink.ascii(' ');
    }
    sink.hex(Buffer.from([0, 1, 0xab, 0xff]));
    const text = sink.buf.subarray(0, sink.pos).toString('utf8');
    assert.equal(text, `${JSON.stringify(all.toString('latin1'))} 0 9 10 99 12345678901234 9007199254740991 -1 -4294967296 0001abff`);
  });
});
