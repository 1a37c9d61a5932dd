// The MCP server takes the capsule size limit as the CLI does (`--capsule-limit-mb N`): the
// refusal it gives names that option, so the option must exist (issue 31). A capsule over the limit
// is refused unread with the size and the limit; the same capsule opens under a higher limit.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { McpSession, cleanEnv } from './support';

const dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-mcp-limit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('--capsule-limit-mb: a capsule over it is refused with its size and the limit, and the refusal names the option', async () => {
  // A sparse 3 MiB file that starts with the capsule magic: only its size is looked at.
  const file = path.join(dir, 'big.tcap');
  writeFileSync(file, Buffer.from([0x54, 0x49, 0x4e, 0x43, 0x41, 0x50, 0x01, 0x00]));
  truncateSync(file, 3 * 1024 * 1024);
  const low = await McpSession.start(['--capsule-limit-mb', '2'], cleanEnv());
  try {
    const refused = await low.error('open_recording', { path: file });
    assert.match(refused, /3 MiB \(3,145,728 bytes\), more than the capsule size limit of 2 MiB/);
    assert.match(refused, /--capsule-limit-mb/);
  } finally {
    await low.close();
  }
  const high = await McpSession.start(['--capsule-limit-mb', '4'], cleanEnv());
  try {
    // Under the limit it is read: no size refusal (it is no real capsule, so it fails later, reading it).
    const other = await high.error('open_recording', { path: file });
    assert.doesNotMatch(other, /capsule size limit/);
  } finally {
    await high.close();
  }
});

test('--capsule-limit-mb out of range is a usage error of the server', async () => {
  await assert.rejects(McpSession.start(['--capsule-limit-mb', '0'], cleanEnv()));
});
