// The Capsules view's quick filter over summaries the spool index made: words, status (exact,
// class, list), since/until as UTC dates or as time back from the newest capsule; bad terms are
// refused with a message that says what to write.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { capsuleMatcher, FilterError, parseFilter } from '../../extension/capsules-view/capsule-filter';
import type { SpoolCapsule } from '../../replay-engine/tcap/spool/capsule-summary';
import { readSpool } from '../../replay-engine/tcap/spool/spool-index';
import { FIXTURE_KEY, randomKeyHex, seal } from '../tcap/support/seal';
import { BUGS, bugBody, spoolName, writeSpool, type SpoolCapsuleSpec } from '../tcap/support/spool';

describe('capsule quick filter', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-filter-'));
  const start = 1_764_590_000_000_000_000n; // 2025-12-01T11:53:20Z
  const specs: SpoolCapsuleSpec[] = writeSpool(dir, FIXTURE_KEY, BUGS, [4, 2, 3, 2, 1, 2], start);
  writeFileSync(join(dir, spoolName(start, 0, 99)), seal(bugBody(BUGS[0], 99, start, 0), randomKeyHex()));
  const all: SpoolCapsule[] = [];
  for await (const c of readSpool(dir, { keyHex: FIXTURE_KEY, env: {} })) all.push(c);
  const newest = specs.reduce((m, s) => (s.wall > m ? s.wall : m), 0n);
  const names = (line: string) => all.filter(capsuleMatcher(parseFilter(line), newest)).map((c) => c.name).sort();
  const bugOf = (ids: string[]) => specs.filter((s) => ids.includes(s.bug)).map((s) => s.name).sort();

  it('words match route, panic, failing effect and unreadable reasons, all of them', () => {
    assert.deepEqual(names('redis'), bugOf(['pay-redis']));
    assert.deepEqual(names('POST /pay timeout'), bugOf(['pay-timeout', 'pay-503']));
    assert.deepEqual(names('INDEX out'), bugOf(['orders-index', 'orders-index-post']), 'case-insensitive');
    assert.equal(names('wrong key').length, 1);
    assert.deepEqual(names(''), all.map((c) => c.name).sort());
  });

  it('status: exact, class and lists', () => {
    assert.deepEqual(names('status:503'), bugOf(['pay-503']));
    assert.deepEqual(names('status:500,503'), bugOf(['pay-timeout', 'pay-redis', 'pay-503']));
    assert.deepEqual(names('status:5xx'), bugOf(BUGS.map((b) => b.id)), 'the unreadable capsule has no status');
    assert.deepEqual(names('status:4xx'), []);
  });

  it('since and until: UTC dates, or back from the newest capsule', () => {
    const last2s = specs.filter((s) => s.wall >= newest - 2_000_000_000n).map((s) => s.name).sort();
    assert.ok(last2s.length > 0 && last2s.length < specs.length);
    assert.deepEqual(names('since:2s'), last2s);
    assert.deepEqual(names('since:2025-12-01T11:53:30'), specs.filter((s) => s.wall >= 1_764_590_010_000_000_000n).map((s) => s.name).sort());
    assert.deepEqual(names('until:2025-11-30'), []);
    assert.equal(names('since:2025-12-01 until:2025-12-02').length, all.length);
  });

  it('refuses what it cannot read, saying what to write', () => {
    assert.throws(() => parseFilter('status:5x'), (e: Error) => e instanceof FilterError && /status \(504\), a class \(5xx\)/.test(e.message));
    assert.throws(() => parseFilter('since:yesterday'), (e: Error) => e instanceof FilterError && /UTC date/.test(e.message));
  });
});
