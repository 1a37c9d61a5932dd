// The MCP server as MCP clients expect it (issue 27, point 3), over the SDK's client and stdio:
// an outputSchema on every tool and structuredContent in every answer (the client checks one
// against the other; support.ts checks it equals the text block), paths as file:// URIs, `~` and
// relative to the client's first root, the client's roots bounding what may be opened (and asked
// again when they change), recordings listed and read as resources, errors worded for MCP.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';
import { cleanEnv, McpSession } from './support';

const CRASH = join(MACHIN_FIXTURES, 'crash', 'crash.mflrr');
const ORDERS = join(TIN_FIXTURES, 'orders-panic.tcap');
const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-protocol-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const inside = join(DIR, 'inside');
const outside = join(DIR, 'outside');
for (const d of [inside, outside, join(inside, 'sub')]) mkdirSync(d, { recursive: true });
copyFileSync(CRASH, join(inside, 'sub', 'crash.mflrr'));
copyFileSync(CRASH, join(outside, 'crash.mflrr'));
symlinkSync(join(outside, 'crash.mflrr'), join(inside, 'link.mflrr'));

describe('MCP server: structured output, paths, roots, resources', () => {
  it('every tool has an outputSchema, and each answer is structuredContent as well as text', async () => {
    const s = await McpSession.start();
    try {
      const { tools } = await s.client.listTools();
      for (const t of tools) {
        assert.equal(t.outputSchema?.type, 'object', `${t.name} has an outputSchema`);
        assert.ok(Object.keys(t.outputSchema?.properties ?? {}).length > 0, t.name);
      }
      // One call of each tool: McpSession.call asserts structuredContent equals the text, and the
      // SDK client refuses an answer that does not match the tool's outputSchema.
      const h = (await s.ok('open_recording', { path: CRASH })).recording;
      await s.ok('get_state', { recording: h, position: 2, detail: true });
      await s.ok('move', { recording: h, action: 'step_in' });
      await s.ok('list_records', { recording: h, limit: 3, detail: true });
      await s.ok('causal_chain', { recording: h, position: 3 });
      await s.ok('compare_recordings', { a: h, b: CRASH });
      await s.ok('close_recording', { recording: h });
      assert.deepEqual(
        tools.map((t) => t.name).sort(),
        ['causal_chain', 'close_recording', 'compare_recordings', 'evaluate', 'find_value_change', 'get_source', 'get_state', 'line_hits', 'list_records', 'move', 'open_recording', 'test_secret', 'value_origin', 'variable_history'],
      );
    } finally {
      await s.close();
    }
  });

  it('paths: a file:// URI, `~/…`, and a relative path against the client\'s first root', async () => {
    const s = await McpSession.start([], cleanEnv({ HOME: inside }), { roots: [pathToFileURL(inside).href] });
    try {
      const byUri = await s.ok('open_recording', { path: pathToFileURL(join(inside, 'sub', 'crash.mflrr')).href });
      assert.equal(byUri.file, join(inside, 'sub', 'crash.mflrr'));
      assert.equal((await s.ok('open_recording', { path: '~/sub/crash.mflrr' })).recording, byUri.recording);
      assert.equal((await s.ok('open_recording', { path: 'sub/crash.mflrr' })).recording, byUri.recording);
      assert.equal((await s.ok('get_state', { recording: 'sub/crash.mflrr' })).position, 0);
      assert.match(await s.error('open_recording', { path: 'https://example.com/crash.mflrr' }), /only file:\/\/ URIs/);
    } finally {
      await s.close();
    }
  });

  it('the client\'s roots bound what may be opened, on real paths, and are asked again when they change', async () => {
    const s = await McpSession.start([], cleanEnv(), { roots: [pathToFileURL(inside).href] });
    try {
      const msg = await s.error('open_recording', { path: join(outside, 'crash.mflrr') });
      assert.match(msg, /outside the client's roots/);
      assert.match(msg, new RegExp(inside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      // A link inside a root to a file outside it is outside.
      assert.match(await s.error('open_recording', { path: join(inside, 'link.mflrr') }), /outside the client's roots/);
      assert.match(await s.error('get_state', { recording: join(outside, 'crash.mflrr') }), /outside the client's roots/);
      // Outside the roots, a file that does not exist is refused the same way: no word on what exists there.
      assert.match(await s.error('open_recording', { path: join(outside, 'no-such.mflrr') }), /outside the client's roots/);
      const before = (await s.ok('open_recording', { path: join(inside, 'sub', 'crash.mflrr') })).recording;
      await s.setRoots([pathToFileURL(outside).href]);
      // The server asks roots/list again on the notification; the next call sees the new roots.
      const end = Date.now() + 5000;
      let opened = await s.call('open_recording', { path: join(outside, 'crash.mflrr') });
      while (opened.isError && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 50));
        opened = await s.call('open_recording', { path: join(outside, 'crash.mflrr') });
      }
      assert.equal(opened.isError, false, opened.text);
      assert.match(await s.error('open_recording', { path: join(inside, 'sub', 'crash.mflrr') }), /outside the client's roots/);
      // A handle opened inside the old roots, now outside the new ones, is closed on its next use, saying why.
      assert.match(await s.error('get_state', { recording: before }), new RegExp(`${before} is closed: the client's roots changed since it was opened, and .*outside the client's roots`));
      assert.match(await s.error('get_state', { recording: before }), new RegExp(`no open recording ${before}`));
      // Relative paths now go against the new first root.
      assert.equal((await s.ok('open_recording', { path: 'crash.mflrr' })).recording, opened.json.recording);
    } finally {
      await s.close();
    }
  });

  it('the server\'s --root is a floor the client\'s roots cannot widen', async () => {
    const s = await McpSession.start(['--root', inside], cleanEnv(), { roots: [pathToFileURL(DIR).href] });
    try {
      assert.match(await s.error('open_recording', { path: join(outside, 'crash.mflrr') }), /outside the folders this server may read \(--root /);
      assert.equal((await s.call('open_recording', { path: join(inside, 'sub', 'crash.mflrr') })).isError, false);
    } finally {
      await s.close();
    }
  });

  it('open recordings are listed and read as resources, and the list says when it changes', async () => {
    const s = await McpSession.start([], cleanEnv());
    try {
      let changed = 0;
      s.client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ResourceListChangedNotificationSchema, () => {
        changed++;
      });
      assert.deepEqual((await s.client.listResources()).resources, []);
      const h = (await s.ok('open_recording', { path: CRASH })).recording;
      const { resources } = await s.client.listResources();
      assert.deepEqual(resources.map((r) => r.uri), [`frozen-run://recording/${h}`]);
      assert.match(resources[0].description ?? '', /machin trace .*crash\.mflrr, 4 schedule ops/);
      const read = await s.client.readResource({ uri: resources[0].uri });
      const summary = JSON.parse((read.contents[0] as { text: string }).text);
      assert.equal(summary.recording, h);
      assert.equal(summary.file, CRASH);
      await s.ok('close_recording', { recording: h });
      assert.deepEqual((await s.client.listResources()).resources, []);
      await assert.rejects(s.client.readResource({ uri: resources[0].uri }), /no open recording/);
      assert.ok(changed >= 2, `${changed} list_changed notifications`);
    } finally {
      await s.close();
    }
  });

  it('errors are worded for MCP: the key from TIN_REPLAY_KEY or --key-file, no VS Code command or setting', async () => {
    const s = await McpSession.start([], cleanEnv());
    try {
      const nokey = await s.error('open_recording', { path: ORDERS });
      assert.match(nokey, /start this MCP server with TIN_REPLAY_KEY in its environment or with --key-file FILE/);
      assert.doesNotMatch(nokey, /Frozen Run:|--key HEX|frozenRun\./);
      // A trace naming a program outside its folder (no toolchain): the warning names this server's ways, not the CLI's.
      const far = join(DIR, 'far');
      mkdirSync(far, { recursive: true });
      writeFileSync(join(far, 'crash.mflrr'), readFileSync(CRASH, 'utf8').replace(/^program .*$/m, `program ${join(DIR, 'crash.mfl')}`));
      copyFileSync(join(MACHIN_FIXTURES, 'crash', 'crash.mfl'), join(DIR, 'crash.mfl'));
      const warned = (await s.ok('open_recording', { path: join(far, 'crash.mflrr') })).warnings.find((w: { code: string }) => w.code === 'program-not-read');
      assert.match(warned.message, /give it as open_recording's `program` argument .* to use it \(outside the trace's folder, the server needs --program-root for it\)/);
      assert.doesNotMatch(warned.message, /CLI: --program|open its folder/);
    } finally {
      await s.close();
    }
  });
});
