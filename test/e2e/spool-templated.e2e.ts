// One failure on many ids is one group in the Capsules view (issue 29, point 11), in a real VS
// Code: seven capsules of `POST /checkout/137`, `/checkout/174`, ... (numbers, a UUID, a long hex
// id) whose first failing effect is the same redis GET on that cart are one group
// `500 POST /checkout/{id}`, 7×; each capsule's row keeps its own route.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildBody, seal } from '../tcap/support/seal';
import { spoolName } from '../tcap/support/spool';
import { withVsCode } from './harness';

const KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const IDS = ['137', '174', '9051', '3f2a9c1e-77b0-4c1d-9a4e-0c5d2b6e8f10', 'a3f9c2e18b7d', '2', '88'];

test('seven capsules of POST /checkout/<id> with the same fault are one group; rows keep their routes', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'spool-templated', env: { TIN_REPLAY_KEY: KEY } }, async (vs) => {
    const { page } = vs;
    const spool = join(vs.workspace, 'spool');
    mkdirSync(spool, { recursive: true });
    IDS.forEach((id, n) => {
      const wall = 1_764_800_000_000_000_000n + BigInt(n) * 60_000_000_000n;
      const body = buildBody({
        wall, core: n % 4, status: 500, flags: 0, request: `POST /checkout/${id} HTTP/1.1\r\nHost: shop.example\r\n\r\n`, panic: '', peer: `10.0.0.${n}:4000`,
        effects: [{ kind: 'redis@1', key: `3:GET ${`cart:${id}`.length}:cart:${id}\n`, outcome: 1, ident: 2, data: `redis: timeout reading cart ${id}` }],
      });
      writeFileSync(join(spool, spoolName(wall, n % 4, n)), seal(body, KEY));
    });
    await vs.runCommand('Explorer: Focus on Capsules View');
    await page.locator('.pane-header', { hasText: 'examples' }).first().click();
    const group = page.getByRole('treeitem', { name: /500 POST \/checkout\/\{id\}, 7×/ });
    await group.waitFor({ timeout: 60_000 });
    const text = (await page.locator('.pane-body .monaco-list-row').allInnerTexts()).join('\n');
    assert.match(text, /500 POST \/checkout\/\{id\}\s*7× · redis@1 failed/);
    assert.match(text, /spool\s*7 capsules · 1 group/, `one group: ${text}`);
    await group.click();
    await page.getByRole('treeitem', { name: /POST \/checkout\/137\b/ }).first().waitFor({ timeout: 20_000 });
    const rows = (await page.locator('.pane-body .monaco-list-row').allInnerTexts()).join('\n');
    for (const id of IDS) assert.ok(rows.includes(`POST /checkout/${id}`), `the row of ${id} keeps its route: ${rows}`);
    await vs.shot('one-group-raw-routes');
  });
});
