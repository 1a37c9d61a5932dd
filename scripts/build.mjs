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
