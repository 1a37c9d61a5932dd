// Every named bad input from the catalogue, fed to the CLI: one clear line (or a warning), the
// documented exit status, no stack trace, no key — and exactly the text SECURITY.md shows.
// FROZEN_RUN_PRINT_CATALOGUE=1 prints the table as observed, to paste into SECURITY.md.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE, observe, row } from './catalogue';
import { FIXTURE_KEY } from '../tcap/support/seal';
import { REPO_ROOT } from '../support/paths';
import { buildCli } from '../engine/build-cli';

const security = () => readFileSync(join(REPO_ROOT, 'SECURITY.md'), 'utf8');

describe('catalogue of bad inputs (SECURITY.md)', () => {
  let dir = '';
  before(async () => {
    await buildCli();
    dir = mkdtempSync(join(tmpdir(), 'frozen-run-catalogue-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const rows: string[] = [];
  after(() => {
    if (process.env.FROZEN_RUN_PRINT_CATALOGUE) console.log(rows.join('\n'));
  });

  for (const c of CATALOGUE) {
    it(c.name, () => {
      const sub = mkdtempSync(join(dir, 'case-'));
      const o = observe(c, sub);
      rows.push(row(c, o));
      if (c.shows === 'error') {
        assert.equal(o.exit, c.exit ?? 1, `${c.name}: exit status`);
        assert.equal(o.stderr.trim().split('\n').length, 1, `${c.name}: one line on stderr, got ${o.stderr}`);
      } else {
        assert.equal(o.exit, 0, `${c.name}: the recording itself is readable`);
      }
      assert.doesNotMatch(o.stderr, /\n\s+at /, 'no stack trace');
      assert.ok(!o.stdout.includes(FIXTURE_KEY) && !o.stderr.includes(FIXTURE_KEY), 'the key never appears');
      assert.ok(!o.stdout.includes('ff'.repeat(32)) && !o.stderr.includes('ff'.repeat(32)), 'a wrong key never appears');
      assert.ok(security().includes(row(c, o)), `SECURITY.md must show exactly:\n${row(c, o)}`);
    });
  }
});
