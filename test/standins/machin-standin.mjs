#!/usr/bin/env node
// machin-standin: a STAND-IN for machin 0.137.0, for tests only. It is not machin and runs no
// program. It answers `machin replay TRACE [--json] [--verify] [--print a,b]` for the traces of
// ../shared/fixtures/machin/ by replaying the outputs recorded from the real tool in each
// fixture's outputs.json. What it does beyond replaying is what machin's own source does before
// running anything (main.go cmdReplay, codegen.go mfl_rr_init), so the error paths are real too:
//   - no trace argument, unreadable trace, no `program` line, a missing program file: machin's
//     errors, exit 1;
//   - a trace whose last line is cut: it waits forever, as machin does (a goroutine that never
//     comes), so time limits are tested for real;
//   - `--print` with other names than recorded: the recorded probes of the requested names, and a
//     `machin-standin:` line on stderr naming the requested names it has no recording for;
//   - `guide --json`: {"version": the recorded machin version, "standin": ...} (machin has no
//     `--version`; `machin --version` is an unknown command, exit 2, as here).
// Anything else: `machin-standin: ...` on stderr, exit 97.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.MACHIN_STANDIN_FIXTURES ?? path.resolve(here, '../../../shared/fixtures/machin');
const NOT_RECORDED = 97;
const PROBE_HEAD = /^probe (\S+) (\S+) = /;
const PROBE_TAIL = / @op(\d+)$/;

main();

function main() {
  const args = process.argv.slice(2);
  if (args[0] === 'replay') return replay(args.slice(1));
  if (args[0] === 'guide') return guide();
  if (args.length === 0) return finish('', 'machin-standin: usage: machin replay TRACE [--json] [--verify] [--print a,b]\n', 2);
  if (args[0].startsWith('-') && args[0] !== '-h' && args[0] !== '--help') {
    return finish('', `unknown command "${args[0]}"\n`, 2);
  }
  return finish('', `machin-standin: \`${args[0]}\` is not recorded; only \`replay\` and \`guide\` are (this is a stand-in for machin)\n`, NOT_RECORDED);
}

function guide() {
  const version = loadFixtures().find((f) => f.version)?.version ?? '0.137.0';
  const catalog = { version, standin: 'machin-standin: replays outputs recorded from real machin; not machin' };
  finish(`${JSON.stringify(catalog, null, 2)}\n`, '', 0);
}

function replay(args) {
  // As machin's cmdReplay: flags anywhere, the last other argument is the trace.
  const want = { json: false, verify: false, print: null };
  let trace = '';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--json') want.json = true;
    else if (args[i] === '--verify') want.verify = true;
    else if (args[i] === '--print') {
      if (i + 1 >= args.length) return fail('replay: --print needs a variable name (e.g. --print balance)');
      want.print = [...(want.print ?? []), ...args[++i].split(',').map((s) => s.trim()).filter(Boolean)];
    } else trace = args[i];
  }
  if (!trace) return fail('replay: need a trace file (from `machin run --record <trace> <file>`)');
  let text;
  try {
    text = readFileSync(trace, 'latin1');
  } catch (err) {
    return fail(err.code === 'ENOENT' ? `open ${trace}: no such file or directory` : `read ${trace}: ${err.message}`);
  }
  const parsed = parseTrace(text);
  if (!parsed.program) return fail('replay: trace has no `program` line \u2014 record it with `machin run --record`');
  if (!existsSync(parsed.program)) return fail(`open ${parsed.program}: no such file or directory`);
  if (parsed.cut) {
    // machin waits for a goroutine named by the cut line that never comes: so does the stand-in.
    setInterval(() => undefined, 1 << 30);
    return;
  }
  const fixtures = loadFixtures();
  const fixture = fixtures.find((f) => f.matches(parsed));
  if (!fixture) return notRecorded('no recorded output for this trace');
  const program = safeRead(parsed.program);
  if (program !== null && program.replace(/\r\n/g, '\n') !== fixture.programText.replace(/\r\n/g, '\n')) {
    return notRecorded(`the program ${parsed.program} differs from the one recorded with this trace (${fixture.programFile}); no recorded output for it`);
  }
  const entry = fixture.replays.find((r) => r.flags.json === want.json && r.flags.verify === want.verify && (r.flags.print === null) === (want.print === null));
  if (!entry) return notRecorded(`no recorded output for \`replay${want.json ? ' --json' : ''}${want.verify ? ' --verify' : ''}${want.print ? ' --print' : ''}\` of ${fixture.name}`);
  let stderr = entry.stderr;
  if (want.print) {
    const recorded = new Set(entry.flags.print);
    const requested = new Set(want.print);
    stderr = keepProbes(stderr, requested);
    const missing = want.print.filter((n) => !recorded.has(n));
    if (missing.length > 0) {
      stderr += `machin-standin: no recorded probes for ${missing.join(',')} (the recording printed only ${entry.flags.print.join(',')}); real machin would print any of them that is a scalar or string assigned after its binding\n`;
    }
  }
  finish(entry.stdout, stderr, entry.exit);
}

/** The trace as machin reads it: program (last `program ` line, trimmed), safe, boundary, S/I lines. */
function parseTrace(text) {
  const lines = text.split('\n');
  const last = lines.pop();
  const cut = last !== undefined && last.length > 0;
  const out = { program: '', safe: false, boundary: 'faithful', records: [], cut };
  for (const raw of cut ? [...lines, last] : lines) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('program ')) out.program = line.slice(8).trim();
    else if (line.trim() === 'safe 1') out.safe = true;
    else if (line.startsWith('boundary ')) out.boundary = line.includes('best-effort') ? 'best-effort' : 'faithful';
    else if (line.startsWith('S') || line.startsWith('I')) out.records.push(line.replace(/\s+$/, ''));
  }
  return out;
}

/** Every recorded trace with its replays, from both outputs.json shapes in the fixtures. */
function loadFixtures() {
  const found = [];
  let dirs = [];
  try {
    dirs = readdirSync(FIXTURES).filter((d) => statSync(path.join(FIXTURES, d)).isDirectory());
  } catch {
    return found;
  }
  for (const d of dirs) {
    const dir = path.join(FIXTURES, d);
    const outputsFile = path.join(dir, 'outputs.json');
    if (!existsSync(outputsFile)) continue;
    const outputs = JSON.parse(readFileSync(outputsFile, 'utf8'));
    const programFile = readdirSync(dir).find((f) => f.endsWith('.mfl'));
    const programText = programFile ? readFileSync(path.join(dir, programFile), 'utf8') : '';
    const add = (traceFile, replays, version) => {
      const tracePath = path.join(dir, traceFile);
      if (!existsSync(tracePath)) return;
      const recorded = parseTrace(readFileSync(tracePath, 'latin1'));
      found.push({
        name: `${d}/${traceFile}`,
        version,
        programFile: programFile ? path.join(dir, programFile) : '(none)',
        programText,
        replays: replays.map((r) => ({ ...r, flags: flagsOf(r.args) })),
        matches: (t) =>
          t.safe === recorded.safe &&
          t.boundary === recorded.boundary &&
          t.records.length === recorded.records.length &&
          t.records.every((line, i) => line === recorded.records[i]),
      });
    };
    if (Array.isArray(outputs.replays)) {
      const traceFile = readdirSync(dir).find((f) => f.endsWith('.mflrr'));
      if (traceFile) add(traceFile, outputs.replays, outputs.machin);
    } else {
      // { "r1.mflrr": { "replay {trace} --print got,order": {stdout, stderr, exit} } }
      for (const [traceFile, byCommand] of Object.entries(outputs)) {
        const replays = Object.entries(byCommand).map(([command, r]) => ({ ...r, args: command.split(' ') }));
        add(traceFile, replays, undefined);
      }
    }
  }
  return found;
}

function flagsOf(args) {
  const flags = { json: false, verify: false, print: null };
  for (let i = 1; i < args.length; i++) {
    if (args[i] === '--json') flags.json = true;
    else if (args[i] === '--verify') flags.verify = true;
    else if (args[i] === '--print') flags.print = args[++i].split(',');
  }
  return flags;
}

/** Recorded stderr without the probes of names not requested (a probe value may span lines). */
function keepProbes(stderr, names) {
  const lines = stderr.split('\n');
  const kept = [];
  for (let i = 0; i < lines.length; i++) {
    const head = PROBE_HEAD.exec(lines[i]);
    if (!head) {
      kept.push(lines[i]);
      continue;
    }
    let end = i;
    while (end < lines.length && !PROBE_TAIL.test(end === i ? lines[i].slice(head[0].length) : lines[end])) end++;
    if (names.has(head[2])) kept.push(...lines.slice(i, end + 1));
    i = end;
  }
  return kept.join('\n');
}

function safeRead(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function fail(message) {
  finish('', `error: ${message}\n`, 1);
}

function notRecorded(why) {
  finish('', `machin-standin: ${why} (this is a stand-in that only replays outputs recorded from real machin)\n`, NOT_RECORDED);
}

function finish(stdout, stderr, code) {
  process.stdout.write(stdout, () => process.stderr.write(stderr, () => process.exit(code)));
}
