// dist/ as `npm run build` makes it, for the tests that run a bundle (the adapter, the CLI, the
// MCP server, the webviews). `npm test` builds first, so this only checks; a test file run by hand
// after an edit rebuilds once, with scripts/build.mjs itself (the same options, files replaced
// whole), under a lock folder so the other test files running at the same time wait for it
// instead of starting a half-written bundle.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { withLockFolder } from './lock-folder';
import { REPO_ROOT } from './paths';

const SOURCES = ['extension', 'debug-adapter', 'replay-engine', 'language-server', 'mcp-server', 'webview-ui', 'scripts/build.mjs'];
const OUTPUTS = ['extension.js', 'debug-adapter.js', 'language-server.js', 'spool-worker.js', 'mcp-server.js', 'cli.js', 'webview/timeline.js', 'webview/history.js', 'webview/compare.js'];

/** The newest modification time of the files under these parts of the repository (missing ones skipped). */
export function newestSource(parts: readonly string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const part of parts) {
    const p = path.join(REPO_ROOT, part);
    if (existsSync(p)) walk(p);
  }
  return newest;
}

function oldestOutput(): number {
  let oldest = Infinity;
  for (const o of OUTPUTS) {
    const p = path.join(REPO_ROOT, 'dist', o);
    if (!existsSync(p)) return 0;
    oldest = Math.min(oldest, statSync(p).mtimeMs);
  }
  return oldest;
}

let checked = false;

/** Builds dist/ when any bundle is missing or older than a source; returns the dist folder. */
export function ensureBuilt(): string {
  const dist = path.join(REPO_ROOT, 'dist');
  if (checked) return dist;
  withLockFolder(path.join(REPO_ROOT, '.tools', 'build.lock'), 120_000, () => {
    if (oldestOutput() >= newestSource(SOURCES)) return;
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build.mjs')], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
  });
  checked = true;
  return dist;
}
