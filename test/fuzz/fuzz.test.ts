// A bounded fuzz run over every reader and decoder: random bytes and mutations of the fixtures
// (bit flips, cuts, repeated parts, hostile lines, lengths set huge or negative and sealed again).
// For every input only RecordingError may escape, within the time limit, with no allocation far
// beyond the input's size. `npm run fuzz` runs the same targets much longer.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check, targets, tempFiles } from './targets';

const RUNS = Number(process.env.FROZEN_RUN_FUZZ_RUNS ?? 300);

describe('fuzz: hostile input gets a RecordingError, never a crash or a hang', () => {
  after(() => tempFiles.dispose());
  for (const target of targets()) {
    it(target.name, async () => {
      await fc.assert(
        fc.asyncProperty(target.input, async (bytes) => {
          const problem = await check(target, bytes);
          assert.equal(problem, undefined, `${target.name}: ${problem}`);
        }),
        { numRuns: RUNS, seed: 20261130, endOnFailure: true },
      );
    });
  }
});

describe('fuzz: the checker itself', () => {
  const base = { name: 'probe', input: fc.constant(new Uint8Array(1)) };
  it('flags an exception that is not a RecordingError', async () => {
    const problem = await check({ ...base, run: () => { throw new TypeError('boom'); } }, new Uint8Array(1));
    assert.match(problem ?? '', /escaped TypeError: boom/);
  });
  it('flags an input over the time limit', async () => {
    const problem = await check({ ...base, run: () => new Promise((r) => setTimeout(r, 150)) }, new Uint8Array(1));
    assert.match(problem ?? '', /took \d+ ms/);
  });
  it('flags an allocation sized far past the input', async () => {
    let keep: Uint8Array | undefined;
    const problem = await check({ ...base, run: () => { keep = new Uint8Array(200 * 1024 * 1024); keep[1] = 1; } }, new Uint8Array(1));
    assert.match(problem ?? '', /array buffers grew/);
    keep = undefined;
  });
});
