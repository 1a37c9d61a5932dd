// Bundles every entry point with esbuild. Node entries are CommonJS for the extension host;
// webview entries are browser IIFE bundles loaded by a nonce'd <script> tag.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const nodeEntries = {
  extension: 'extension/main.ts',
  'debug-adapter': 'debug-adapter/main.ts',
  'language-server': 'language-server/main.ts',
  // The spool index's worker thread, loaded by path beside the extension and the CLI.
  'spool-worker': 'replay-engine/tcap/spool/spool-worker.ts',
  // The MCP server: loaded by the CLI's `mcp` command, or run as `node dist/mcp-server.js`.
  'mcp-server': 'mcp-server/main.ts',
};
// The CLI is its own build: it is run directly (`bin: frozen-run`), so it needs a shebang.
const cliEntries = { cli: 'replay-engine/cli/main.ts' };
const webEntries = {
  timeline: 'webview-ui/timeline/main.ts',
  history: 'webview-ui/history/main.ts',
  compare: 'webview-ui/compare/main.ts',
};

const pick = (entries) => Object.fromEntries(Object.entries(entries).filter(([, f]) => existsSync(f)));

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };
const builds = [
  { ...common, entryPoints: pick(nodeEntries), outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: pick(cliEntries), outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: pick(webEntries), outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'chrome120', loader: { '.css': 'text' } },
];

// Each file is written beside its place and renamed over it: a process starting from dist/ (a test
// running beside the build, a VS Code with the extension installed from here) reads the old file
// or the new one, never half of one.
function writeWhole(outputFiles) {
  for (const f of outputFiles) {
    mkdirSync(dirname(f.path), { recursive: true });
    const temp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(temp, f.contents);
    renameSync(temp, f.path);
  }
}

for (const options of builds) {
  if (Object.keys(options.entryPoints).length === 0) continue;
  if (watch) await (await esbuild.context(options)).watch();
  else writeWhole((await esbuild.build({ ...options, write: false })).outputFiles);
}

// The stderr buffer library of the instrumented replays (replay-engine/machin/source/stderr-buffer.ts),
// compiled here once beside the bundles with the C compiler machin uses, and the SHA-256 of its
// source beside it: a launch then uses it at once (when the hash is its own source's) instead of
// waiting for the compiler. Where there is none, nothing is left here and a launch builds it.
if (!watch) await buildStderrBuffer();

async function buildStderrBuffer() {
  const { spawnSync } = await import('node:child_process');
  const { createHash } = await import('node:crypto');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const lib = 'dist/fr-stderr-buffer.so';
  const hashFile = `${lib}.sha256`;
  const out = await esbuild.build({ entryPoints: ['replay-engine/machin/source/stderr-buffer-source.ts'], bundle: true, write: false, platform: 'node', format: 'cjs', logLevel: 'warning' });
  const module = { exports: {} };
  new Function('module', 'exports', out.outputFiles[0].text)(module, module.exports);
  const source = module.exports.STDERR_BUFFER_C;
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-build-'));
  try {
    writeFileSync(join(dir, 'fr-stderr-buffer.c'), source);
    const temp = `${lib}.${process.pid}.tmp`;
    const cc = process.env.CC || 'cc';
    const r = spawnSync(cc, ['-shared', '-fPIC', '-O2', '-o', temp, join(dir, 'fr-stderr-buffer.c')], { encoding: 'utf8', env: { ...process.env, TMPDIR: dir } });
    rmSync(hashFile, { force: true });
    if (r.status !== 0) {
      rmSync(temp, { force: true });
      rmSync(lib, { force: true });
      console.log(`build: no stderr buffer library (${cc}: ${(r.error?.message ?? r.stderr).split('\n')[0]}); a launch builds it`);
      return;
    }
    renameSync(temp, lib);
    writeFileSync(hashFile, createHash('sha256').update(source).digest('hex'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
