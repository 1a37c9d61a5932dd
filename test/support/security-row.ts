// SECURITY.md's catalogue shows what a user or an agent meets for each hostile input: a test that
// observes it asserts that the row `| name | exit | text |` is there exactly (the message with `dir`
// taken out of paths). The CLI's rows are checked by test/security/catalogue.test.ts; this is for
// the other front ends (the debug adapter, the MCP server) and for what the CLI's table cannot show.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export function assertSecurityRow(name: string, exit: string, text: string, dir?: string): void {
  const shown = (dir ? text.split(`${dir}/`).join('').split(dir).join('.') : text).replace(/\|/g, '\\|');
  const row = `| ${name} | ${exit} | ${shown} |`;
  const doc = readFileSync(join(REPO_ROOT, 'SECURITY.md'), 'utf8');
  assert.ok(doc.includes(row), `SECURITY.md must show exactly:\n${row}`);
}
