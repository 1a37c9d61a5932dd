// The catalogue of named bad inputs: how each is made and how the user meets it through the CLI.
// SECURITY.md keeps the same table with the exact text; catalogue.test.ts checks they agree.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBody, FIXTURE_KEY, seal } from '../tcap/support/seal';
import { MACHIN_FIXTURES, REPO_ROOT, TIN_FIXTURES } from '../support/paths';
import { machinPath } from '../support/machin';

export interface CatalogueCase {
  name: string;
  /** Writes the input into dir and returns the file name and the CLI arguments after `inspect FILE`. */
  make(dir: string): { file: string; args: string[]; env?: Record<string, string> };
  /** Sent to the CLI after this many ms (a user's Ctrl-C during a run). */
  interruptAfterMs?: number;
  /** Exit status when not the default (1 for errors, 0 for warnings). */
  exit?: number;
  /** Where the user reads it: the one error line, a warning of `inspect --json`, a line of `inspect`'s text, a value of `inspect --json`, or stderr of a run whose reader goes away (`quiet`: nothing, when all is well). */
  shows: 'error' | 'warning' | 'text' | 'value' | 'quiet';
  /** The CLI command (default `inspect`); for `spool`, `file` is the folder. */
  command?: 'inspect' | 'spool';
  /** Its stdout piped into this shell command (`head -c 0`: a reader that goes away at once). */
  pipeTo?: string;
  /** For text: the line of `inspect`'s text output that the row shows. */
  textLine?: RegExp;
  /** For warnings: which one (its code). */
  warningCode?: string;
  /** For values: the text the user reads, picked from `inspect --json`. */
  pick?: (json: Record<string, unknown>) => string;
}

const HEADER = 'MFLRR 1\nboundary faithful\nprogram /home/ci/app/crash.mfl\nsafe 1\n';
const trace = (dir: string, name: string, text: string | Buffer) => {
  writeFileSync(join(dir, name), text);
  return name;
};
const capsule = (dir: string, name: string, bytes: Uint8Array) => {
  writeFileSync(join(dir, name), bytes);
  return name;
};
const orders = () => new Uint8Array(readFileSync(join(TIN_FIXTURES, 'orders-panic.tcap')));
const KEY = ['--key', FIXTURE_KEY];
/** The crash fixture with its program beside it, so that only the toolchain is missing or slow. */
const crashWithProgram = (dir: string, text: string) => {
  copyFileSync(join(MACHIN_FIXTURES, 'crash/crash.mfl'), join(dir, 'crash.mfl'));
  return trace(dir, 'crash.mflrr', text);
};

const link = (dir: string, name: string, target: string) => {
  symlinkSync(target, join(dir, name));
  return name;
};
const fifo = (dir: string, name: string) => {
  spawnSync('mkfifo', [join(dir, name)]);
  return name;
};

/** A machin that answers `guide` and then never ends: it ignores SIGTERM, as does the grandchild it waits on. */
const hangingMachin = (dir: string) => {
  const file = join(dir, 'hanging-machin');
  writeFileSync(file, `#!/bin/bash\nif [ "$1" = guide ]; then echo '{"version":"0.137.0"}'; exit 0; fi\ntrap '' TERM\nsleep 1000 &\nwait\n`, { mode: 0o755 });
  return file;
};

export const CATALOGUE: CatalogueCase[] = [
  { name: 'empty trace', shows: 'error', make: (d) => ({ file: trace(d, 'empty.mflrr', ''), args: ['--no-toolchain'] }) },
  {
    name: 'cut last line',
    shows: 'warning',
    warningCode: 'cut-line',
    make: (d) => ({ file: trace(d, 'cut.mflrr', `${HEADER}S 0.1\nS 0.`), args: ['--no-toolchain'] }),
  },
  { name: 'bad hex', shows: 'error', make: (d) => ({ file: trace(d, 'badhex.mflrr', `${HEADER}I 0 7g\nS 0\n`), args: ['--no-toolchain'] }) },
  { name: 'odd-length hex', shows: 'error', make: (d) => ({ file: trace(d, 'oddhex.mflrr', `${HEADER}I 0 abc\nS 0\n`), args: ['--no-toolchain'] }) },
  { name: 'unknown version', shows: 'error', make: (d) => ({ file: trace(d, 'v2.mflrr', 'MFLRR 2\nboundary faithful\n'), args: ['--no-toolchain'] }) },
  { name: 'unknown record tag', shows: 'error', make: (d) => ({ file: trace(d, 'tag.mflrr', `${HEADER}S 0\nX 0\n`), args: ['--no-toolchain'] }) },
  {
    name: 'binary garbage',
    shows: 'error',
    make: (d) => ({ file: trace(d, 'garbage.mflrr', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0xff, 0xfe])), args: ['--no-toolchain'] }),
  },
  {
    name: 'wrong key',
    shows: 'error',
    make: (d) => ({ file: capsule(d, 'orders.tcap', orders()), args: ['--key', 'ff'.repeat(32)] }),
  },
  {
    name: 'changed byte',
    shows: 'error',
    make: (d) => {
      const b = orders();
      b[200] ^= 0x01;
      return { file: capsule(d, 'changed.tcap', b), args: KEY };
    },
  },
  { name: 'cut capsule', shows: 'error', make: (d) => ({ file: capsule(d, 'cut.tcap', orders().subarray(0, 40)), args: KEY }) },
  { name: 'not a capsule', shows: 'error', make: (d) => ({ file: capsule(d, 'text.tcap', new TextEncoder().encode('GET / HTTP/1.1\r\n\r\n')), args: KEY }) },
  {
    name: 'unknown effect kind',
    shows: 'error',
    make: (d) => ({ file: capsule(d, 'kind.tcap', seal(buildBody({ effects: [{ kind: 'grpc@1', key: '/shop.Cart/Get', data: 'x' }] }), FIXTURE_KEY)), args: KEY }),
  },
  {
    name: 'unknown schema',
    shows: 'error',
    make: (d) => ({ file: capsule(d, 'schema.tcap', seal(buildBody({ schema: 3, effects: [] }), FIXTURE_KEY)), args: KEY }),
  },
  {
    name: 'version 2 without identity',
    shows: 'error',
    make: (d) => {
      const text = 'TINCAP\x02\x00' + 'status=500\nmethod=GET\npath=/orders/9\npanic=index out of range\n' + '\x00'.repeat(80);
      return { file: capsule(d, 'v2.tcap', new Uint8Array(Buffer.from(text, 'latin1'))), args: KEY };
    },
  },
  { name: 'no key', shows: 'error', make: (d) => ({ file: capsule(d, 'nokey.tcap', orders()), args: [], env: { TIN_REPLAY_KEY: '' } }) },
  {
    name: 'missing program',
    shows: 'warning',
    warningCode: 'program-missing',
    make: (d) => ({ file: trace(d, 'crash.mflrr', readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'))), args: ['--machin', machinPath()] }),
  },
  {
    name: 'program outside the trace folder',
    shows: 'warning',
    warningCode: 'program-not-confirmed',
    // No program roots (the CLI): a trace naming a program outside its own folder is not run.
    make: (d) => {
      mkdirSync(join(d, 'outside'));
      copyFileSync(join(MACHIN_FIXTURES, 'crash/crash.mfl'), join(d, 'outside/evil.mfl'));
      mkdirSync(join(d, 'mail'));
      const text = readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), 'latin1').replace(/^program .*$/m, 'program ../outside/evil.mfl');
      return { file: trace(d, 'mail/crash.mflrr', text), args: ['--machin', machinPath()] };
    },
  },
  {
    name: 'toolchain missing',
    shows: 'warning',
    warningCode: 'toolchain-missing',
    make: (d) => ({ file: crashWithProgram(d, readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), 'latin1')), args: [], env: { PATH: '/usr/bin:/bin', MACHIN: '' } }),
  },
  { name: 'trace linked to /dev/zero', shows: 'error', make: (d) => ({ file: link(d, 'zero.mflrr', '/dev/zero'), args: ['--no-toolchain'] }) },
  { name: 'capsule linked to /dev/urandom', shows: 'error', make: (d) => ({ file: link(d, 'random.tcap', '/dev/urandom'), args: KEY }) },
  { name: 'FIFO named .mflrr', shows: 'error', make: (d) => ({ file: fifo(d, 'pipe.mflrr'), args: ['--no-toolchain'] }) },
  {
    name: 'blank lines',
    shows: 'warning',
    warningCode: 'blank-line',
    // 140 KB of blank lines: read in linear time, one warning for all of them.
    make: (d) => ({ file: trace(d, 'blank.mflrr', `${HEADER}S 0\n${'\n'.repeat(140_000)}S 0\n`), args: ['--no-toolchain'] }),
  },
  {
    name: '130,000 goroutines',
    shows: 'text',
    textLine: /more \(--json lists all\)/,
    make: (d) => {
      const ids = ['0'];
      for (let i = 0; ids.length < 130_000; i++) for (let k = 1; k <= 8 && ids.length < 130_000; k++) ids.push(`${ids[i]}.${k}`);
      return { file: trace(d, 'many.mflrr', HEADER + ids.map((id) => `S ${id}\n`).join('')), args: ['--no-toolchain'] };
    },
  },
  {
    name: 'terminal escapes in a trace',
    shows: 'error',
    make: (d) => ({ file: trace(d, 'evil\x1b]0;owned\x07.mflrr', `${HEADER}S 0\nX \x1b[2J\r\u202e\n`), args: ['--no-toolchain'] }),
  },
  {
    name: 'Ctrl-C during a replay',
    shows: 'error',
    exit: 130,
    interruptAfterMs: 3_000,
    make: (d) => ({ file: crashWithProgram(d, readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), 'latin1')), args: ['--machin', hangingMachin(d)] }),
  },
  {
    name: 'toolchain time limit hit',
    shows: 'warning',
    warningCode: 'toolchain-timeout',
    // A limit far below what any process start takes, so every replay run hits it.
    make: (d) => ({
      file: crashWithProgram(d, readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), 'latin1')),
      args: ['--machin', machinPath(), '--time-limit', '0.001'],
    }),
  },
];

/** A file of `size` bytes that starts with the capsule magic and holds nothing else (sparse: no disk space). */
const sparseCapsule = (dir: string, name: string, size: number) => {
  writeFileSync(join(dir, name), Buffer.from('TINCAP\x01\x00', 'latin1'));
  truncateSync(join(dir, name), size);
  return name;
};
/** A spool folder with one good capsule (sealed under the fixture key). */
const spoolWithOne = (dir: string) => {
  mkdirSync(join(dir, 'spool'));
  copyFileSync(join(TIN_FIXTURES, 'orders-panic.tcap'), join(dir, 'spool/orders.tcap'));
  return 'spool';
};

// Issue 31 (hostile input, round three).
CATALOGUE.push(
  { name: 'capsule of 2 GiB (sparse)', shows: 'error', make: (d) => ({ file: sparseCapsule(d, 'huge.tcap', 2 * 1024 ** 3), args: KEY }) },
  // Under the limit: its tag is checked while it streams through 4 MiB, never read whole (tens of MB resident: test/security/huge-capsule.test.ts).
  { name: 'damaged capsule of 1,000 MiB (sparse), under the limit', shows: 'error', make: (d) => ({ file: sparseCapsule(d, 'damaged.tcap', 1000 * 1024 ** 2), args: KEY }) },
  {
    name: 'program that is a FIFO',
    shows: 'warning',
    warningCode: 'program-missing',
    make: (d) => {
      fifo(d, 'crash.mfl');
      return { file: trace(d, 'crash.mflrr', readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'))), args: ['--machin', machinPath()] };
    },
  },
  {
    name: 'program outside the trace folder, trace only',
    shows: 'warning',
    warningCode: 'program-not-read',
    make: (d) => {
      mkdirSync(join(d, 'outside'));
      copyFileSync(join(MACHIN_FIXTURES, 'crash/crash.mfl'), join(d, 'outside/evil.mfl'));
      mkdirSync(join(d, 'mail'));
      const text = readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), 'latin1').replace(/^program .*$/m, 'program ../outside/evil.mfl');
      return { file: trace(d, 'mail/crash.mflrr', text), args: ['--no-toolchain'] };
    },
  },
  {
    name: 'spool: FIFO named x.tcap',
    command: 'spool',
    shows: 'text',
    textLine: /^ {2}x\.tcap: /,
    make: (d) => {
      const folder = spoolWithOne(d);
      fifo(d, `${folder}/x.tcap`);
      return { file: folder, args: KEY };
    },
  },
  {
    name: 'spool: capsule name with a line break',
    command: 'spool',
    shows: 'text',
    textLine: /^ {8}x\\n/,
    make: (d) => {
      const folder = spoolWithOne(d);
      copyFileSync(join(TIN_FIXTURES, 'orders-panic.tcap'), join(d, folder, 'x\n     9  500 GET forged.tcap'));
      rmOriginal(d, folder);
      return { file: folder, args: KEY };
    },
  },
  {
    name: 'spool: its reader gone at once (head -c 0)',
    command: 'spool',
    shows: 'quiet',
    pipeTo: 'head -c 0',
    make: (d) => ({ file: spoolWithOne(d), args: [...KEY, '--json'] }),
  },
);

/** Leaves only the forged name in the spool, so it is the example line shown. */
function rmOriginal(d: string, folder: string): void {
  rmSync(join(d, folder, 'orders.tcap'));
}

/** A pipeline of 200,000 Redis commands in one effect (a batch job's MGET loop). */
const bigPipeline = () =>
  buildBody({ effects: [{ kind: 'redis@1', key: Array.from({ length: 200_000 }, (_, i) => `3:GET ${`k:${i}`.length}:k:${i}\n`).join(''), data: '+OK\r\n' }] });

CATALOGUE.push({
  name: 'a value of 200,000 parts',
  shows: 'value',
  pick: (j) => (j.effects as Array<{ decoded: { key: { text: string } } }>)[0].decoded.key.text,
  make: (d) => ({ file: capsule(d, 'pipeline.tcap', seal(bigPipeline(), FIXTURE_KEY)), args: KEY }),
});

export interface Observed {
  exit: number;
  /** The message with the temporary folder taken out, as SECURITY.md shows it. */
  message: string;
  stderr: string;
  stdout: string;
}

export function observe(c: CatalogueCase, dir: string): Observed {
  const { file, args, env } = c.make(dir);
  const json = c.shows === 'warning' || c.shows === 'value' ? ['--json'] : [];
  const cli = [process.execPath, join(REPO_ROOT, 'dist/cli.js'), c.command ?? 'inspect', file, ...args, ...json];
  // coreutils' timeout sends the Ctrl-C and passes on the CLI's own exit status (spawnSync stops reading output at its timeout).
  // --foreground: to the CLI only, once, as a terminal's Ctrl-C comes (without it timeout signals
  // its own group as well, and on a loaded machine the CLI took the second as a second Ctrl-C).
  let command = c.interruptAfterMs ? ['timeout', '--foreground', '--preserve-status', '-s', 'INT', String(c.interruptAfterMs / 1000), ...cli] : cli;
  // pipefail: the exit status is the CLI's, not the reader's.
  if (c.pipeTo) command = ['bash', '-c', `set -o pipefail; "$@" | ${c.pipeTo}`, 'catalogue', ...command];
  const r = spawnSync(command[0], command.slice(1), {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 30_000,
    maxBuffer: 1 << 28,
  });
  const strip = (s: string) => s.split(`${dir}/`).join('').split(dir).join('.').split(REPO_ROOT).join('<repo>');
  let message = '';
  if (c.shows === 'error') {
    message = strip(r.stderr.trim());
  } else if (c.shows === 'quiet') {
    message = r.stderr.trim() ? strip(r.stderr.trim()) : '(nothing: the output ends there, no error)';
  } else if (c.shows === 'value') {
    try {
      message = c.pick!(JSON.parse(r.stdout) as Record<string, unknown>);
    } catch {
      message = `(not JSON: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)})`;
    }
  } else if (c.shows === 'text') {
    message = strip(r.stdout.split('\n').find((l) => c.textLine!.test(l))?.trim() ?? `(no line like ${c.textLine} in: ${r.stdout.slice(0, 200)})`);
  } else {
    try {
      const warnings = (JSON.parse(r.stdout) as { warnings: Array<{ code: string; message: string }> }).warnings;
      const ws = warnings.filter((w) => w.code === c.warningCode);
      message = ws.length ? strip(ws[0].message) : `(no ${c.warningCode} warning; warnings: ${warnings.map((w) => w.code).join(', ')})`;
    } catch {
      message = `(not JSON: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)})`;
    }
  }
  return { exit: r.status ?? -1, message, stderr: r.stderr, stdout: r.stdout };
}

/** A markdown table row, with pipes in the message escaped. */
export function row(c: CatalogueCase, o: Observed): string {
  return `| ${c.name} | ${o.exit} | ${o.message.replace(/\|/g, '\\|')} |`;
}
