// The report `tin replay` prints (formats/tcap.md):
//   replay: status S (recorded R)
//   replay: divergence at effect N: got KIND "KEY", recorded KIND "KEY"     (or: recorded nothing more)
//   replay: K recorded effects not served
//   <the response body>
// and its exit status: 0 faithful, 3 diverged or effects left, 4 the capsule cannot be read, 2 usage.
// Keys are quoted with escapes (a Redis key ends in `\n`); they are cut to 200 bytes by tin.

export interface EffectCall {
  kind: string;
  key: string;
}

export interface Divergence {
  /** The effect number (seq) where the replay left the recording. */
  effect: number;
  got: EffectCall;
  /** What the capsule holds at that point, or null: the replay called after the last record. */
  recorded: EffectCall | null;
}

export type ReplayOutcome = 'faithful' | 'diverged' | 'unreadable' | 'usage' | 'failed';

export interface ReplayReport {
  outcome: ReplayOutcome;
  exitCode: number;
  status?: number;
  recordedStatus?: number;
  divergence?: Divergence;
  /** Recorded effects the replay did not use (0 when the line is absent). */
  notServed: number;
  /** The response body (everything after the report lines). */
  body: string;
  /** tin's own message for exit 4 / 2 (from stderr, else stdout). */
  message?: string;
}

const STATUS = /^replay: status (\d+) \(recorded (\d+)\)$/;
const DIVERGENCE_HEAD = /^replay: divergence at effect (\d+): got /;
const NOT_SERVED = /^replay: (\d+) recorded effects? not served$/;

export function outcomeOf(exitCode: number): ReplayOutcome {
  return exitCode === 0 ? 'faithful' : exitCode === 3 ? 'diverged' : exitCode === 4 ? 'unreadable' : exitCode === 2 ? 'usage' : 'failed';
}

export function parseReplayReport(stdout: string, stderr: string, exitCode: number): ReplayReport {
  const report: ReplayReport = { outcome: outcomeOf(exitCode), exitCode, notServed: 0, body: '' };
  let rest = stdout;
  const takeLine = (): string | undefined => {
    const nl = rest.indexOf('\n');
    if (nl < 0) return undefined;
    const line = rest.slice(0, nl);
    return line;
  };
  let line = takeLine();
  let m = line !== undefined ? STATUS.exec(line) : null;
  if (m) {
    report.status = Number(m[1]);
    report.recordedStatus = Number(m[2]);
    rest = rest.slice(line!.length + 1);
    line = takeLine();
    if (line !== undefined && DIVERGENCE_HEAD.test(line)) {
      const d = parseDivergence(line);
      if (d) {
        report.divergence = d;
        rest = rest.slice(line.length + 1);
        line = takeLine();
      }
    }
    m = line !== undefined ? NOT_SERVED.exec(line) : null;
    if (m) {
      report.notServed = Number(m[1]);
      rest = rest.slice(line!.length + 1);
    }
    report.body = rest;
  } else if (exitCode !== 0 && exitCode !== 3) {
    report.message = (stderr.trim() || stdout.trim()).split('\n').slice(-5).join('\n');
  } else {
    report.body = stdout;
    report.message = 'tin printed no `replay: status` line; its output is shown as the body';
  }
  return report;
}

/** `replay: divergence at effect N: got KIND "KEY", recorded KIND "KEY"` or `..., recorded nothing more`. */
export function parseDivergence(line: string): Divergence | undefined {
  const head = DIVERGENCE_HEAD.exec(line);
  if (!head) return undefined;
  let pos = head[0].length;
  const got = parseCall(line, pos);
  if (!got) return undefined;
  pos = got.end;
  if (!line.startsWith(', recorded ', pos)) return undefined;
  pos += ', recorded '.length;
  if (line.slice(pos) === 'nothing more') return { effect: Number(head[1]), got: got.call, recorded: null };
  const recorded = parseCall(line, pos);
  if (!recorded || recorded.end !== line.length) return undefined;
  return { effect: Number(head[1]), got: got.call, recorded: recorded.call };
}

function parseCall(line: string, pos: number): { call: EffectCall; end: number } | undefined {
  const space = line.indexOf(' "', pos);
  if (space < 0) return undefined;
  const kind = line.slice(pos, space);
  const q = parseQuoted(line, space + 1);
  if (!q) return undefined;
  return { call: { kind, key: q.text }, end: q.end };
}

/** A double-quoted string with Go-style escapes (\n \r \t \\ \" \xHH \uHHHH \UHHHHHHHH \a \b \f \v \0oo). */
export function parseQuoted(s: string, at: number): { text: string; end: number } | undefined {
  if (s[at] !== '"') return undefined;
  const bytes: number[] = [];
  const pushText = (t: string) => {
    for (const b of Buffer.from(t, 'utf8')) bytes.push(b);
  };
  let i = at + 1;
  while (i < s.length) {
    const c = s[i];
    if (c === '"') return { text: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (c !== '\\') {
      const cp = s.codePointAt(i)!;
      pushText(String.fromCodePoint(cp));
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = s[i + 1];
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"', "'": "'", a: '\x07', b: '\b', f: '\f', v: '\v' };
    if (e in simple) {
      pushText(simple[e]);
      i += 2;
    } else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
      bytes.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
      pushText(String.fromCodePoint(parseInt(s.slice(i + 2, i + 6), 16)));
      i += 6;
    } else if (e === 'U' && /^[0-9a-fA-F]{8}$/.test(s.slice(i + 2, i + 10))) {
      pushText(String.fromCodePoint(Math.min(parseInt(s.slice(i + 2, i + 10), 16), 0x10ffff)));
      i += 10;
    } else if (/^[0-7]{3}$/.test(s.slice(i + 1, i + 4))) {
      bytes.push(parseInt(s.slice(i + 1, i + 4), 8) & 0xff);
      i += 4;
    } else {
      return undefined;
    }
  }
  return undefined;
}
