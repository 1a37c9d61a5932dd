// A benchmark's child process, measured: wall time, CPU time and peak RSS (from /usr/bin/time -v,
// NaN without it). Its standard output goes to /dev/null (written in full, never collected).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface ChildRun {
  ms: number;
  cpuMs: number;
  maxRssBytes: number;
}

export function runChild(cmd: string, args: string[], env: NodeJS.ProcessEnv): ChildRun {
  const useTime = existsSync('/usr/bin/time');
  const t = process.hrtime.bigint();
  const r = useTime
    ? spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24, env })
    : spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24, env });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
  return { ms, cpuMs: user && sys ? (Number(user[1]) + Number(sys[1])) * 1000 : NaN, maxRssBytes: rss ? Number(rss[1]) * 1024 : NaN };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * The environment as inherited, without NODE_EXTRA_CA_CERTS (set on some machines, this sandbox
 * included): with it every Node process parses that certificate file before running any code,
 * tens of milliseconds that are neither reading nor indexing.
 */
export function nodeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _certs, ...env } = process.env;
  return { ...env, ...extra };
}
