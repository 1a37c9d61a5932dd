// tin-standin: a STAND-IN for `tin replay`, for tests on machines without Tin. It does not run
// any program. It checks its arguments and the key the way tin does (TIN_REPLAY_KEY in its
// environment, the capsule's tag), then prints only report forms documented in formats/tcap.md:
//   - for a saved test (the capsule listed in a cases.json beside it), the stdout and exit status
//     recorded from the real tin in that cases.json;
//   - otherwise the report described by the JSON file named in TIN_STANDIN_SCENARIO:
//     {"status": S, "recorded": R, "divergence": {"effect": N, "got": {"kind", "key"},
//      "recorded": {"kind", "key"} | null}, "notServed": K, "body": "...", "exit": 0 | 3}
//     laid out exactly as the document's report lines.
// With --save-test NAME --issue N and exit 0 it writes tests/regressions/NAME.tin, NAME.tcap
// (re-sealed under the public test key) and the cases.json entry, in its working folder.
// TIN_STANDIN_LOG (optional): a file to which it appends its argv and whether a key was in its
// environment (never the key itself).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const args = process.argv.slice(2);
const out = (s) => process.stdout.write(s);
const fail = (code, message) => {
  process.stderr.write(`${message}\n`);
  process.exit(code);
};

if (process.env.TIN_STANDIN_LOG) {
  appendFileSync(process.env.TIN_STANDIN_LOG, `${JSON.stringify({ argv: args, keyInEnv: /^[0-9a-fA-F]{64}$/.test(process.env.TIN_REPLAY_KEY ?? '') })}\n`);
}

// tin replay CAPSULE --against BUILD [--live KIND]... [--save-test NAME --issue N]
if (args[0] !== 'replay' || args.length < 4) fail(2, 'usage: tin replay CAPSULE --against BUILD [--live KIND]... [--save-test NAME --issue N]');
const capsule = args[1];
let build;
const live = [];
let saveName;
let issue;
for (let i = 2; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (value === undefined) fail(2, `tin replay: ${flag} needs a value`);
  if (flag === '--against') build = value;
  else if (flag === '--live') live.push(value);
  else if (flag === '--save-test') saveName = value;
  else if (flag === '--issue') issue = Number(value);
  else fail(2, `tin replay: unknown flag ${flag}`);
}
if (!build) fail(2, 'tin replay: --against BUILD is required');
if ((saveName === undefined) !== (issue === undefined)) fail(2, 'tin replay: --save-test and --issue go together');
if (saveName !== undefined && !build.endsWith('.tin')) fail(2, 'tin replay: --save-test needs a .tin BUILD');

const keyHex = process.env.TIN_REPLAY_KEY ?? '';
if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) fail(4, 'tin-standin: TIN_REPLAY_KEY is not set to 64 hex digits');
const key = Buffer.from(keyHex, 'hex');
let file;
try {
  file = readFileSync(capsule);
} catch {
  fail(4, `capsule: cannot read ${capsule}`);
}
const hmac = (k, ...parts) => parts.reduce((h, p) => h.update(p), createHmac('sha256', k)).digest();
const word = (i) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt(i));
  return b;
};
const keystreamXor = (k, nonce, data) => {
  const ke = hmac(k, 'tin replay enc');
  const res = Buffer.alloc(data.length);
  for (let i = 0; i * 32 < data.length; i++) {
    const block = hmac(ke, nonce, word(i));
    for (let j = 0; j < 32 && i * 32 + j < data.length; j++) res[i * 32 + j] = data[i * 32 + j] ^ block[j];
  }
  return res;
};
if (file.length < 56 || !file.subarray(0, 8).equals(Buffer.from('TINCAP\x01\x00', 'latin1'))) fail(4, 'capsule: wrong key or damaged');
const tag = hmac(hmac(key, 'tin replay mac'), file.subarray(0, file.length - 32));
if (!timingSafeEqual(tag, file.subarray(file.length - 32))) fail(4, 'capsule: wrong key or damaged');

function goQuote(s) {
  const cut = Buffer.from(s, 'utf8').subarray(0, 200).toString('utf8').replace(/\uFFFD$/, '');
  let q = '"';
  for (const ch of cut) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === '\\') q += `\\${ch}`;
    else if (ch === '\n') q += '\\n';
    else if (ch === '\r') q += '\\r';
    else if (ch === '\t') q += '\\t';
    else if (c < 0x20 || c === 0x7f) q += `\\x${c.toString(16).padStart(2, '0')}`;
    else q += ch;
  }
  return `${q}"`;
}

let stdout;
let exit;
const casesFile = join(dirname(capsule), 'cases.json');
const savedCase = existsSync(casesFile) ? JSON.parse(readFileSync(casesFile, 'utf8')).find((c) => c.replay?.capsule === basename(capsule)) : undefined;
if (savedCase && savedCase.expected?.stdout !== undefined) {
  stdout = savedCase.expected.stdout;
  exit = savedCase.expected.exit ?? 0;
} else if (process.env.TIN_STANDIN_SCENARIO) {
  const s = JSON.parse(readFileSync(process.env.TIN_STANDIN_SCENARIO, 'utf8'));
  stdout = `replay: status ${s.status} (recorded ${s.recorded})\n`;
  if (s.divergence) {
    const d = s.divergence;
    const recorded = d.recorded ? `${d.recorded.kind} ${goQuote(d.recorded.key)}` : 'nothing more';
    stdout += `replay: divergence at effect ${d.effect}: got ${d.got.kind} ${goQuote(d.got.key)}, recorded ${recorded}\n`;
  }
  if (s.notServed) stdout += `replay: ${s.notServed} recorded effects not served\n`;
  stdout += s.body ?? '';
  exit = s.divergence || s.notServed ? 3 : 0;
} else {
  fail(1, 'tin-standin: no recorded output for this capsule (no cases.json entry and no TIN_STANDIN_SCENARIO)');
}
out(stdout);

if (saveName !== undefined && exit === 0) {
  const dir = join(process.cwd(), 'tests', 'regressions');
  mkdirSync(dir, { recursive: true });
  copyFileSync(build, join(dir, `${saveName}.tin`));
  const body = keystreamXor(key, file.subarray(8, 24), file.subarray(24, file.length - 32));
  const publicKey = createHash('sha256').update('tin replay saved tests: not a secret').digest();
  const nonce = randomBytes(16);
  const head = Buffer.concat([Buffer.from('TINCAP\x01\x00', 'latin1'), nonce, keystreamXor(publicKey, nonce, body)]);
  writeFileSync(join(dir, `${saveName}.tcap`), Buffer.concat([head, hmac(hmac(publicKey, 'tin replay mac'), head)]));
  const casesPath = join(dir, 'cases.json');
  const cases = existsSync(casesPath) ? JSON.parse(readFileSync(casesPath, 'utf8')) : [];
  cases.push({ source: `${saveName}.tin`, issue, replay: { capsule: `${saveName}.tcap`, key: publicKey.toString('hex') }, expected: { phase: 'run', exit: 0, stdout } });
  writeFileSync(casesPath, `${JSON.stringify(cases, null, 2)}\n`);
}
process.exit(exit);
