// Every end-to-end test (test/e2e/*.e2e.ts), in one test process. `npm test` runs two test files
// at once but only one VS Code at a time (support/browser-turn.ts): as one file, the VS Code tests
// run one after another in one slot while the other test files run in the other, instead of two
// of them holding both slots, one waiting for the other. One file runs alone with
// `node --import tsx --test test/e2e/NAME.e2e.ts`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

for (const name of readdirSync(__dirname).filter((n) => n.endsWith('.e2e.ts')).sort()) {
  require(join(__dirname, name));
}
