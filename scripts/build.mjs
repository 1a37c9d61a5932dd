// Bundles every entry point with esbuild. Node entries are CommonJS for the extension host;
// webview entries are browser IIFE bundles loaded by a nonce'd <script> tag.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

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

for (const options of builds) {
  if (Object.keys(options.entryPoints).length === 0) continue;
  if (watch) await (await esbuild.context(options)).watch();
  else await esbuild.build(options);
}
