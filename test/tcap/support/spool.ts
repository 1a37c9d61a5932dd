// Spools for tests and benches: capsules written with the test capsule writer (seal.ts) under
// spool names (`WALL-CORE-N.tcap`), each tagged with the bug it stands for, so a test can check
// the index's groups against the partition it built, computed without the engine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBody, seal, type EffectSpec } from './seal';

export interface Bug {
  id: string;
  status: number;
  method: string;
  /** The path; query values are added per capsule (they must not split a group). */
  path: string;
  /** Query names; each capsule gets its own values. */
  query?: string[];
  /** A panic message template: `#` becomes a number that differs from capsule to capsule. */
  panic?: string;
  /** The kind of the first failing effect, with its message template (`#` a varying number). */
  fault?: { kind: string; key?: string; message: string };
  /** Effects that succeed before the fault. */
  before?: EffectSpec[];
}

export interface SpoolCapsuleSpec {
  name: string;
  bug: string;
  wall: bigint;
}

export function spoolName(wall: bigint, core: number, counter: number): string {
  return `${wall.toString().padStart(20, '0')}-${String(core).padStart(3, '0')}-${counter}.tcap`;
}

/** The body of capsule `n` of a bug: numbers, query values, peers and payload differ from capsule to capsule. */
export function bugBody(bug: Bug, n: number, wall: bigint, core: number, padding = 0): Uint8Array {
  const vary = (t: string) => t.replace(/#/g, String(3 + ((n * 7919) % 997)));
  const query = bug.query?.length ? `?${bug.query.map((q, i) => `${q}=${n * 31 + i}`).join('&')}` : '';
  const effects: EffectSpec[] = [
    { kind: 'tide.now@1', data: word8(88_000_000_000n + BigInt(n)) },
    { kind: 'redis@1', key: `3:GET 6:cart:${n % 10}\n`, data: '$-1\r\n' },
    ...(bug.before ?? []),
  ];
  if (padding > 0) effects.push({ kind: 'quarry.read@1', key: `/srv/data/${n}.csv`, data: 'x'.repeat(padding) });
  if (bug.fault) {
    effects.push({ kind: bug.fault.kind, key: bug.fault.key ?? '', outcome: 1, ident: 2, data: vary(bug.fault.message) });
    // A later fault of another kind: only the first one counts.
    effects.push({ kind: 'wire.read@1', key: '1 4096', outcome: 1, ident: 1, data: 'EOF' });
  }
  return buildBody({
    wall,
    core,
    status: bug.status,
    flags: bug.panic ? 1 : 0,
    request: `${bug.method} ${bug.path}${query} HTTP/1.1\r\nHost: shop.example\r\nAuthorization: tin-secret:${'ab'.repeat(16)}\r\n\r\n`,
    panic: bug.panic ? vary(bug.panic) : '',
    peer: `10.0.${n % 250}.${(n * 3) % 250}:${40000 + (n % 20000)}`,
    effects,
  });
}

function word8(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, v, true);
  return b;
}

/** Writes `counts[i]` capsules of `bugs[i]` into `dir`, sealed under `keyHex`; returns what it wrote. */
export function writeSpool(dir: string, keyHex: string, bugs: Bug[], counts: number[], startWall = 1_764_590_000_000_000_000n): SpoolCapsuleSpec[] {
  mkdirSync(dir, { recursive: true });
  const out: SpoolCapsuleSpec[] = [];
  let n = 0;
  bugs.forEach((bug, b) => {
    for (let i = 0; i < counts[b]; i++, n++) {
      // Interleaved in time: bug b's i-th capsule comes at slot i * bugs.length + b.
      const wall = startWall + BigInt((i * bugs.length + b) * 1_000_000_007);
      const core = n % 8;
      const name = spoolName(wall, core, n);
      writeFileSync(join(dir, name), seal(bugBody(bug, n, wall, core), keyHex));
      out.push({ name, bug: bug.id, wall });
    }
  });
  return out;
}

/** A version 2 capsule: magic, then (where Tin puts it) the plain summary, then opaque bytes. */
export function v2Capsule(summary: { status: number; method: string; path: string; panic?: string }): Uint8Array {
  const text = `status=${summary.status}\nmethod=${summary.method}\npath=${summary.path}\n${summary.panic ? `panic=${summary.panic}\n` : ''}`;
  return new Uint8Array(Buffer.concat([Buffer.from('TINCAP\x02\x00', 'latin1'), Buffer.alloc(40, 7), Buffer.from(text, 'utf8'), Buffer.alloc(64, 0)]));
}

/** The bugs of the test spools: statuses, routes, panics and faults that differ in one part each. */
export const BUGS: Bug[] = [
  { id: 'orders-index', status: 504, method: 'GET', path: '/orders/9', query: ['page', 'sort'], panic: 'index out of range [#] with length #' },
  { id: 'orders-index-post', status: 504, method: 'POST', path: '/orders/9', panic: 'index out of range [#] with length #' },
  { id: 'pay-timeout', status: 500, method: 'POST', path: '/pay', fault: { kind: 'wire.http@1', key: 'POST https://bank.example/charge\n\n', message: 'dial tcp 10.1.2.#:443: i/o timeout after #ms' } },
  { id: 'pay-redis', status: 500, method: 'POST', path: '/pay', fault: { kind: 'redis@1', key: '3:GET 5:pay:1\n', message: 'redis: connection pool exhausted (#/# in use)' } },
  { id: 'pay-503', status: 503, method: 'POST', path: '/pay', fault: { kind: 'wire.http@1', key: 'POST https://bank.example/charge\n\n', message: 'dial tcp 10.1.2.#:443: i/o timeout after #ms' } },
  { id: 'cart-sql-panic', status: 504, method: 'GET', path: '/cart', query: ['id'], panic: 'nil map write in session 0x#f3a', fault: { kind: 'postgres@1', key: 'Q select * from carts where id = $1\nI#\n', message: 'pq: deadlock detected (pid #)' } },
];
