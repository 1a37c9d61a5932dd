// Assembles every replay-engine/**/*.wat into a sibling *.wasm.ts that holds the module's bytes
// (base64), so the engine loads it the same way from sources (tests) and from the bundles.
// `npm run wasm` after editing a .wat; test/engine/scan-kernel.test.ts fails when they differ.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

/** The bytes of the module in `watFile`. */
export async function assemble(watFile) {
  const wabt = await wabtInit();
  const module = wabt.parseWat(watFile, readFileSync(watFile, 'utf8'));
  try {
    module.validate();
    return Buffer.from(module.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}

/** The text of the generated .wasm.ts for `watFile`. */
export async function generatedSource(watFile) {
  const bytes = await assemble(watFile);
  const name = relative(ROOT, watFile);
  return (
    `// Generated from ${name} by \`npm run wasm\` (wabt's wat2wasm). Do not edit.\n` +
    `export const WASM_BASE64 =\n  '${bytes.toString('base64')}';\n`
  );
}

function watFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? watFiles(join(dir, e.name)) : e.name.endsWith('.wat') ? [join(dir, e.name)] : [],
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const wat of watFiles(join(ROOT, 'replay-engine'))) {
    const out = wat.replace(/\.wat$/, '.wasm.ts');
    writeFileSync(out, await generatedSource(wat));
    console.log(`${relative(ROOT, wat)} -> ${relative(ROOT, out)}`);
  }
}
