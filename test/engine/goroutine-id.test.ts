// The reader checks a long goroutine id (over 8 bytes) on its bytes, before making its string:
// the byte check must accept exactly what the id pattern accepts, and the reader must refuse the
// rest with the malformed-id error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { GOROUTINE_ID, isGoroutineId } from '../../replay-engine/mflrr/goroutine-table';
import { readMflrr } from '../../replay-engine/mflrr/recording';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-ids-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (s: string) => new TextEncoder().encode(s);

describe('goroutine ids checked on their bytes', () => {
  it('accepts exactly what GOROUTINE_ID accepts', () => {
    const part = fc.oneof(fc.integer({ min: 0, max: 99_999_999_999 }).map(String), fc.constantFrom('', '0', '01', '1234567890', '12345678901', 'a', ' '));
    const id = fc.oneof(
      fc.array(part, { minLength: 1, maxLength: 12 }).map((ps) => ps.join('.')),
      fc.array(part, { minLength: 1, maxLength: 12 }).map((ps) => `0.${ps.join('.')}`),
      fc.stringMatching(/^[0-9.]{1,40}$/),
    );
    fc.assert(
      fc.property(id, (s) => {
        const b = bytes(`x${s}y`);
        assert.equal(isGoroutineId(b, 1, b.length - 1), GOROUTINE_ID.test(s), s);
      }),
      { numRuns: 5000 },
    );
  });

  it('the reader refuses a long malformed id and reads a long valid one', async () => {
    const file = join(dir, 'ids.mflrr');
    const head = 'MFLRR 1\nboundary faithful\nprogram /x/a.mfl\nsafe 1\nS 0\n';
    writeFileSync(file, `${head}S 0.1.2.3.4.5.6.7\nS 0.1.2.3.4.5.6.7\n`);
    const ok = await readMflrr(file);
    assert.deepEqual(ok.timeline.threads.map((t) => t.id), ['0', '0.1.2.3.4.5.6.7']);
    for (const bad of ['0.1.2.3.4.5.06', '0.1.2.3.4.5.6.', '0.12345678901', '0..1.2.3.4.5']) {
      writeFileSync(file, `${head}S ${bad}\n`);
      await assert.rejects(readMflrr(file), (e: Error) => e.message.includes('malformed goroutine id'), bad);
    }
  });
});
