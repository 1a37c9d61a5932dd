// Builds dist/cli.js for the CLI tests with the same esbuild options as scripts/build.mjs, so the
// tests do not depend on every other entry point of the project building at this moment.
import { build } from 'esbuild';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export async function buildCli(): Promise<string> {
  await build({
    entryPoints: { cli: join(ROOT, 'replay-engine/cli/main.ts') },
    outdir: join(ROOT, 'dist'),
    bundle: true,
    sourcemap: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  });
  return CLI;
}
