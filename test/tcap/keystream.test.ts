// The fast keystream paths (SIMD kernel, JS midstates, two threads) against the definition:
// block i = HMAC-SHA256(Ke, nonce || word(i)), computed here with createHmac per block.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { keystreamState, xorKeystream, xorKeystreamScalar } from '../../replay-engine/tcap/keystream';
import { startKeystream, xorKeystreamParallel } from '../../replay-engine/tcap/keystream-parallel';
import { capsuleBuffer, kernelMemoryOf, simdModule, xorKeystreamSimd } from '../../replay-engine/tcap/keystream-simd';
import { WASM_BASE64 } from '../../replay-engine/tcap/keystream-kernel.wasm';
import { keystreamKernelSource } from '../../scripts/generate-keystream-kernel';
import { u8, word } from './support/seal';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths';

function reference(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i * 32 < data.length; i++) {
    const block = createHmac('sha256', ke).update(nonce).update(word(i)).digest();
    for (let j = 0; j < 32 && i * 32 + j < data.length; j++) out[i * 32 + j] = data[i * 32 + j] ^ block[j];
  }
  return out;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('tcap keystream', () => {
  const ke = u8(randomBytes(32));
  const nonce = u8(randomBytes(16));
  const sizes = [0, 1, 31, 32, 33, 127, 128, 129, 4096 + 5, 65536, 262144 - 1, 262144, 262144 + 129, 700_001];

  it('the SIMD kernel is available in this Node', () => {
    assert.ok(simdModule(), 'WebAssembly SIMD should compile on Node 20');
  });

  it('the kernel shipped in keystream-kernel.wasm.ts is the one its generator makes (run `npm run wasm` after changing it)', () => {
    const file = readFileSync(join(REPO_ROOT, 'replay-engine', 'tcap', 'keystream-kernel.wasm.ts'), 'utf8');
    assert.equal(file, keystreamKernelSource());
    assert.ok(WASM_BASE64.length > 1000);
  });

  for (const n of sizes) {
    it(`${n} bytes: SIMD, JS and the entry point agree with createHmac per block`, () => {
      const data = u8(randomBytes(n));
      const want = reference(ke, nonce, data);
      const st = keystreamState(ke, nonce);
      const simd = new Uint8Array(n);
      assert.ok(xorKeystreamSimd(st.inner, st.outer, st.nonceWords, data, simd));
      assert.ok(same(simd, want), 'simd');
      if (n < 300_000) assert.ok(same(xorKeystreamScalar(st.inner, st.outer, Array.from(st.nonceWords), data, new Uint8Array(n)), want), 'scalar');
      assert.ok(same(xorKeystream(ke, nonce, data), want), 'entry');
    });
  }

  it('a range in place (what each thread does) and the two-thread path', async () => {
    const n = 3 * 1024 * 1024 + 77;
    const data = u8(randomBytes(n));
    const original = new Uint8Array(data);
    const want = reference(ke, nonce, data);
    const st = keystreamState(ke, nonce);
    const buf = new Uint8Array(data);
    const split = 128 * 4099;
    assert.ok(xorKeystreamSimd(st.inner, st.outer, st.nonceWords, buf, buf, split, n));
    assert.ok(xorKeystreamSimd(st.inner, st.outer, st.nonceWords, buf, buf, 0, split));
    assert.ok(same(buf, want), 'two ranges in place');
    assert.equal(xorKeystreamSimd(st.inner, st.outer, st.nonceWords, buf, buf, 100, n), false, 'a range must start on a 128-byte group');
    assert.ok(same(await xorKeystreamParallel(ke, nonce, data), want), 'parallel');
    assert.ok(same(data, original), 'input unchanged');
  });

  it('a capsule read into a kernel memory is decrypted where it lies, on both threads, and nothing around the body changes', async () => {
    // As a capsule file is opened: the file in the memory, the body from byte 24 to the tag.
    const n = 5 * 1024 * 1024 + 77; // not a multiple of the 128-byte group: a short last piece
    const file = capsuleBuffer(24 + n + 32);
    assert.ok(file && kernelMemoryOf(file), 'a kernel memory');
    file.set(u8(randomBytes(file.length)));
    const before = new Uint8Array(file);
    const body = file.subarray(24, 24 + n);
    const want = reference(ke, nonce, before.subarray(24, 24 + n));
    await startKeystream(ke, nonce, body).go();
    assert.ok(same(body, want), 'the body is decrypted');
    assert.ok(same(file.subarray(0, 24), before.subarray(0, 24)), 'the bytes before the body are untouched');
    assert.ok(same(file.subarray(24 + n), before.subarray(24 + n)), 'the tag after the body is untouched');
    // A second capsule in its own memory, while the worker keeps its instance of the first.
    const other = capsuleBuffer(n);
    assert.ok(other);
    other.set(before.subarray(24, 24 + n));
    await startKeystream(ke, nonce, other).go();
    assert.ok(same(other, want), 'a second capsule');
  });
});
