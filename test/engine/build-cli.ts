// dist/cli.js for the CLI tests, as `npm run build` makes it (test/support/built.ts).
import { join } from 'node:path';
import { ensureBuilt } from '../support/built';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export async function buildCli(): Promise<string> {
  ensureBuilt();
  return CLI;
}
