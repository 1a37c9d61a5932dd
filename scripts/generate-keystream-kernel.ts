// Writes replay-engine/tcap/keystream-kernel.wasm.ts: the keystream kernel's bytes (base64), made
// by keystream-kernel-build.ts. Run by `npm run wasm`; test/tcap/keystream.test.ts fails when the
// file and the generator differ.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildKeystreamKernel } from '../replay-engine/tcap/keystream-kernel-build';

export function keystreamKernelSource(): string {
  const bytes = Buffer.from(buildKeystreamKernel());
  return (
    '// Generated from keystream-kernel-build.ts by `npm run wasm`. Do not edit.\n' +
    `export const WASM_BASE64 =\n  '${bytes.toString('base64')}';\n`
  );
}

if (require.main === module) {
  const out = join(__dirname, '..', 'replay-engine', 'tcap', 'keystream-kernel.wasm.ts');
  writeFileSync(out, keystreamKernelSource());
  console.log(`replay-engine/tcap/keystream-kernel-build.ts -> ${out}`);
}
