// The spool index over spools built capsule by capsule: the groups are the partition by the bug
// each capsule was written for (worked out here from what was written, not by the engine); damaged,
// cut, foreign and wrong-key capsules are listed with the engine's reason and never stop the rest;
// a `.tmp` being written is not a capsule yet; a version 2 capsule is summarised without a key;
// the index can be cancelled; and the partial decryption agrees with a full open on every fixture.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import type { SpoolCapsule } from '../../replay-engine/tcap/spool/capsule-summary';
import { folderKeyResolver } from '../../replay-engine/tcap/spool/folder-keys';
import { groupSpool } from '../../replay-engine/tcap/spool/spool-groups';
import { describeSignature } from '../../replay-engine/tcap/spool/signature';
import { readSpool, readSpoolCapsule } from '../../replay-engine/tcap/spool/spool-index';
import { fixtureCapsules } from './support/fixtures';
import { buildBody, FIXTURE_KEY, randomKeyHex, seal } from './support/seal';
import { BUGS, bugBody, spoolName, v2Capsule, writeSpool, type SpoolCapsuleSpec } from './support/spool';

const freshDir = () => mkdtempSync(join(tmpdir(), 'spool-'));
const COUNTS = [7, 3, 5, 2, 1, 4];

/** The partition of capsule names by bug, as sets of names sorted for comparison. */
function partitionByBug(specs: SpoolCapsuleSpec[]): string[][] {
  const byBug = new Map<string, string[]>();
  for (const s of specs) byBug.set(s.bug, [...(byBug.get(s.bug) ?? []), s.name]);
  return [...byBug.values()].map((names) => names.sort()).sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

function reasonOf(all: SpoolCapsule[], name: string): { code: string; reason: string } {
  const c = all.find((x) => x.name === name);
  assert.ok(c, `${name} is not listed`);
  assert.equal(c.readable, false, `${name} was read`);
  return c.readable ? { code: '', reason: '' } : { code: c.code, reason: c.reason };
}

describe('spool index', () => {
  it('groups are the capsules of one bug: status, masked panic, route without query values, first fault kind', async () => {
    const dir = freshDir();
    const specs = writeSpool(dir, FIXTURE_KEY, BUGS, COUNTS);
    const index = await groupSpool(readSpool(dir, { keyHex: FIXTURE_KEY, env: {} }));
    const groups = index.groups();
    assert.equal(index.unreadable().length, 0);
    assert.deepEqual(
      groups.map((g) => g.capsules.map((c) => c.name).sort()).sort((a, b) => b.length - a.length || a[0].localeCompare(b[0])),
      partitionByBug(specs),
    );
    assert.deepEqual(groups.map((g) => g.count), [...COUNTS].sort((a, b) => b - a), 'largest group first');
    for (const g of groups) {
      const walls = specs.filter((s) => g.capsules.some((c) => c.name === s.name)).map((s) => s.wall);
      assert.equal(g.first, walls.reduce((a, b) => (a < b ? a : b)));
      assert.equal(g.last, walls.reduce((a, b) => (a > b ? a : b)));
      for (let i = 1; i < g.capsules.length; i++) assert.ok(g.capsules[i - 1].wall! > g.capsules[i].wall!, 'newest first');
    }
    // One capsule in full: what a user reads in the list.
    const cart = groups.find((g) => g.signature.faultKind === 'postgres@1')!;
    assert.deepEqual(cart.signature, { status: 504, panic: 'nil map write in session <id>', route: 'GET /cart?id=', faultKind: 'postgres@1', faultKey: 'Q select * from carts where id = ${id}⏎I#' });
    const newest = cart.capsules[0];
    const spec = specs.find((s) => s.name === newest.name)!;
    const n = specs.indexOf(spec);
    assert.equal(newest.wall, spec.wall);
    assert.equal(newest.core, n % 8);
    assert.equal(newest.status, 504);
    assert.equal(newest.panicked, true);
    assert.match(newest.panic, /^nil map write in session 0x\d+f3a$/);
    assert.equal(newest.target, `/cart?id=${n * 31}`);
    assert.equal(newest.peer, `10.0.${n % 250}.${(n * 3) % 250}:${40000 + (n % 20000)}`);
    assert.equal(newest.effectCount, 4, "clock, redis, the fault, a later EOF");
    assert.deepEqual(newest.firstFault, { seq: 2, kind: 'postgres@1', key: 'Q select * from carts where id = $1\nI#\n', message: `pq: deadlock detected (pid ${3 + ((n * 7919) % 997)})` });
    const panicOnly = groups.find((g) => g.signature.route === 'POST /orders/{id}')!;
    assert.equal(panicOnly.signature.faultKind, null, 'a panic with no failing effect');
    assert.equal(panicOnly.capsules[0].firstFault, null);
  });

  it('one failure on many ids is one group: numbers, UUIDs and long hex ids in the path and in the first fault\'s key are {id}; each row keeps its raw route', async () => {
    const dir = freshDir();
    const ids = ['137', '174', '9051', '3f2a9c1e-77b0-4c1d-9a4e-0c5d2b6e8f10', 'a3f9c2e18b7d', '2', '88'];
    ids.forEach((id, n) => {
      const wall = 1_764_800_000_000_000_000n + BigInt(n) * 1_000_000_007n;
      const body = buildBody({
        wall, core: n % 4, status: 500, flags: 0, request: `POST /checkout/${id}/pay HTTP/1.1\r\nHost: shop.example\r\n\r\n`, panic: '', peer: '10.0.0.1:4000',
        effects: [{ kind: 'redis@1', key: `3:GET ${`cart:${id}`.length}:cart:${id}\n`, outcome: 1, ident: 2, data: `redis: timeout on cart ${id}` }],
      });
      writeFileSync(join(dir, spoolName(wall, n % 4, n)), seal(body, FIXTURE_KEY));
    });
    // A different route stays apart: a word is no id, and neither is a short hex-looking word.
    const other = buildBody({ wall: 1_764_900_000_000_000_000n, core: 0, status: 500, flags: 0, request: 'POST /checkout/cafe/pay HTTP/1.1\r\n\r\n', panic: '', peer: '', effects: [{ kind: 'redis@1', key: '3:GET 9:cart:cafe\n', outcome: 1, ident: 2, data: 'x' }] });
    writeFileSync(join(dir, spoolName(1_764_900_000_000_000_000n, 0, 99)), seal(other, FIXTURE_KEY));
    const index = await groupSpool(readSpool(dir, { keyHex: FIXTURE_KEY, env: {} }));
    const groups = index.groups();
    assert.deepEqual(groups.map((g) => [g.count, g.signature.route, g.signature.faultKey]), [
      [7, 'POST /checkout/{id}/pay', '{id}:GET {id}:cart:{id}'],
      [1, 'POST /checkout/cafe/pay', '{id}:GET {id}:cart:cafe'],
    ]);
    assert.deepEqual(groups[0].capsules.map((c) => c.target).sort(), ids.map((id) => `/checkout/${id}/pay`).sort());
    assert.match(describeSignature(groups[0].signature), /^500 POST \/checkout\/\{id\}\/pay · first fault redis@1 \{id\}:GET \{id\}:cart:\{id\}$/);
  });

  it('damaged, cut, foreign and wrong-key capsules are listed with their reason; the rest are grouped; a .tmp is not read', async () => {
    const dir = freshDir();
    const specs = writeSpool(dir, FIXTURE_KEY, BUGS, COUNTS);
    const wall = 1_764_600_000_000_000_000n;
    const bad = {
      flipped: spoolName(wall, 1, 900),
      cut: spoolName(wall + 1n, 1, 901),
      otherKey: spoolName(wall + 2n, 2, 902),
      notCapsule: spoolName(wall + 3n, 2, 903),
      empty: spoolName(wall + 4n, 3, 904),
      trailing: spoolName(wall + 5n, 3, 905),
      unknownKind: spoolName(wall + 6n, 4, 906),
    };
    const good = seal(bugBody(BUGS[2], 900, wall, 1), FIXTURE_KEY);
    const flipped = good.slice();
    flipped[200] ^= 0x01;
    writeFileSync(join(dir, bad.flipped), flipped);
    writeFileSync(join(dir, bad.cut), good.subarray(0, 40));
    writeFileSync(join(dir, bad.otherKey), seal(bugBody(BUGS[2], 902, wall, 2), randomKeyHex()));
    writeFileSync(join(dir, bad.notCapsule), 'PK\x03\x04 this is a zip file, copied here by mistake');
    writeFileSync(join(dir, bad.empty), '');
    writeFileSync(join(dir, bad.trailing), seal(buildBody({ effects: [], trailing: 'junk' }), FIXTURE_KEY));
    writeFileSync(join(dir, bad.unknownKind), seal(buildBody({ effects: [{ kind: 'teleport@9' }] }), FIXTURE_KEY));
    // Being written: half a capsule under its .tmp name.
    writeFileSync(join(dir, `${spoolName(wall + 9n, 5, 999)}.tmp`), good.subarray(0, good.length >> 1));
    writeFileSync(join(dir, 'README.txt'), 'not a capsule name');
    // A link named like a capsule to a FIFO: refused by name, never an open that hangs.
    const fifo = join(freshDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const linked = spoolName(wall + 7n, 4, 907);
    symlinkSync(fifo, join(dir, linked));

    const all: SpoolCapsule[] = [];
    const index = await groupSpool((async function* () {
      for await (const c of readSpool(dir, { keyHex: FIXTURE_KEY, env: {} })) yield (all.push(c), c);
    })());
    assert.equal(all.length, specs.length + Object.keys(bad).length + 1, 'every .tcap listed once, the .tmp and other files not at all');
    assert.ok(!all.some((c) => c.name.endsWith('.tmp')));
    assert.deepEqual(index.groups().map((g) => g.count), [...COUNTS].sort((a, b) => b - a), 'the readable capsules are grouped as without the bad ones');

    const flippedR = reasonOf(all, bad.flipped);
    assert.equal(flippedR.code, 'wrong-key-or-damaged');
    assert.match(flippedR.reason, /capsule: wrong key or damaged/);
    assert.ok(flippedR.reason.startsWith(join(dir, bad.flipped)), 'the reason names the file');
    assert.equal(reasonOf(all, bad.otherKey).code, 'wrong-key-or-damaged');
    assert.match(reasonOf(all, bad.cut).reason, /cut short at 40 bytes/);
    assert.match(reasonOf(all, bad.notCapsule).reason, /not a capsule/);
    assert.match(reasonOf(all, bad.empty).reason, /empty \(0 bytes\)/);
    assert.match(reasonOf(all, bad.trailing).reason, /damaged at byte \d+: 4 bytes after the last of 0 effect records/);
    assert.match(reasonOf(all, bad.unknownKind).reason, /kind teleport@9/);
    // A capsule the spool dropped between listing and reading is not in the index at all.
    assert.equal(readSpoolCapsule(join(dir, spoolName(wall, 9, 1)), folderKeyResolver({ keyHex: FIXTURE_KEY, env: {} })), undefined);
    assert.match(reasonOf(all, linked).reason, /not a regular file: it is a named pipe \(FIFO\)/);
    const listed = index.unreadable();
    assert.equal(listed.length, Object.keys(bad).length + 1);
    assert.equal(listed[0].name, linked, 'unreadable ones newest first (by the time in their name)');
    assert.equal(listed[1].wall, wall + 6n);
  });

  it('without a key: version 1 capsules say so, a version 2 capsule is summarised from its plain text', async () => {
    const dir = freshDir();
    writeSpool(dir, FIXTURE_KEY, BUGS.slice(0, 1), [2]);
    const v2 = spoolName(1_764_700_000_000_000_000n, 7, 1);
    writeFileSync(join(dir, v2), v2Capsule({ status: 504, method: 'GET', path: '/orders/12?page=3', panic: 'index out of range [5] with length 2' }));
    const index = await groupSpool(readSpool(dir, { env: {} }));
    const unreadable = index.unreadable();
    assert.equal(unreadable.length, 2);
    for (const u of unreadable) {
      assert.equal(u.code, 'no-key');
      assert.match(u.reason, /no key was given/);
      assert.ok(u.reason.startsWith(u.file));
    }
    const [g] = index.groups();
    assert.equal(g.count, 1);
    // The route is templated (the raw target stays in the row): /orders/12 is /orders/{id}.
    assert.deepEqual(g.signature, { status: 504, panic: 'index out of range [<n>] with length <n>', route: 'GET /orders/{id}?page=', faultKind: undefined });
    assert.equal(g.capsules[0].target, '/orders/12?page=3');
    assert.equal(g.capsules[0].envelope, 2);
    assert.equal(g.capsules[0].wall, 1_764_700_000_000_000_000n, 'the time from the file name');
    assert.equal(g.capsules[0].core, 7);
  });

  it('TIN_REPLAY_KEY is the folder key when none is given; a saved test opens with the public test key', async () => {
    const dir = freshDir();
    const key = randomKeyHex();
    writeSpool(dir, key, BUGS.slice(2, 3), [3]);
    const saved = join(dir, 'saved.tcap');
    // Sealed under the public test key (the SHA-256 of the text formats/tcap.md gives).
    writeFileSync(saved, seal(buildBody({ status: 500, effects: [] }), createHash('sha256').update('tin replay saved tests: not a secret').digest('hex')));
    writeFileSync(join(dir, 'cases.json'), JSON.stringify([{ source: 'saved.tin', issue: 1, replay: { capsule: 'saved.tcap' }, expected: {} }]));
    const index = await groupSpool(readSpool(dir, { env: { TIN_REPLAY_KEY: key } }));
    assert.deepEqual(index.unreadable().map((u) => u.reason), []);
    assert.deepEqual(index.groups().map((g) => g.count).sort(), [1, 3]);
  });

  it('can be cancelled: it stops before reading the rest and says it was cancelled', async () => {
    const dir = freshDir();
    writeSpool(dir, FIXTURE_KEY, BUGS, [10, 10, 10, 10, 10, 10]);
    const stop = new AbortController();
    let seen = 0;
    const progress: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const _ of readSpool(dir, { keyHex: FIXTURE_KEY, env: {}, signal: stop.signal, onProgress: (p) => progress.push(p.done) })) {
          if (++seen === 5) stop.abort();
        }
      })(),
      (e: Error & { code?: string }) => e.code === 'cancelled' && /cancelled/.test(e.message),
    );
    assert.ok(seen < 10, `read ${seen} capsules after the cancel`);
    assert.equal(progress[0], 0);
  });

  it('agrees with a full open on every Tin fixture (the partial decryption reads what the reader reads)', async () => {
    for (const f of fixtureCapsules()) {
      const dir = freshDir();
      const file = join(dir, basename(f.capsule));
      copyFileSync(f.capsule, file);
      const summary = readSpoolCapsule(file, folderKeyResolver({ keyHex: f.expected.key, env: {} }));
      assert.ok(summary, f.name);
      if (f.expected.error) {
        assert.equal(summary.readable, false, f.name);
        if (!summary.readable) assert.ok(summary.reason.includes(f.expected.error), `${f.name}: ${summary.reason}`);
        continue;
      }
      assert.ok(summary.readable, f.name);
      if (!summary.readable) continue;
      const rec = await openCapsuleFile(file, { keyHex: f.expected.key, env: {} });
      assert.equal(summary.wall?.toString(), f.expected.wallExact, f.name);
      assert.equal(summary.status, f.expected.status);
      assert.equal(summary.core, f.expected.core);
      assert.equal(summary.panic, f.expected.panic);
      assert.equal(summary.panicked, f.expected.panicked);
      assert.equal(summary.peer, f.expected.peer);
      assert.equal(summary.effectCount, rec.timeline.recordCount);
      let fault = -1;
      for (let r = 0; r < rec.timeline.recordCount && fault < 0; r++) if (rec.outcome(r) === 1) fault = r;
      assert.equal(summary.firstFault?.seq ?? -1, fault, `${f.name}: first fault`);
      if (fault >= 0) {
        assert.equal(summary.firstFault?.kind, rec.timeline.kindName(fault));
        assert.equal(summary.firstFault?.message, Buffer.from(rec.data(fault)).toString('utf8').slice(0, 500));
      }
    }
  });
});

describe('spool index on worker threads', () => {
  it('finds the same groups and unreadable capsules as one thread', async () => {
    const dir = freshDir();
    writeSpool(dir, FIXTURE_KEY, BUGS, [40, 30, 50, 20, 10, 60]);
    writeFileSync(join(dir, spoolName(1_764_800_000_000_000_000n, 1, 1)), seal(bugBody(BUGS[0], 1, 1n, 1), randomKeyHex()));
    const summary = (g: Awaited<ReturnType<typeof groupSpool>>) => ({
      groups: g.groups().map((x) => [x.key, x.count, x.first, x.last, x.capsules.map((c) => c.name)]),
      unreadable: g.unreadable().map((u) => [u.name, u.code]),
    });
    const one = summary(await groupSpool(readSpool(dir, { keyHex: FIXTURE_KEY, env: {}, threads: 1 })));
    let progress = 0;
    const two = summary(await groupSpool(readSpool(dir, { keyHex: FIXTURE_KEY, env: {}, threads: 2, onProgress: (p) => (progress = p.done) })));
    assert.deepEqual(two, one);
    assert.equal(progress, 211);
    assert.equal(one.unreadable.length, 1);
  });
});

describe('spool index on worker threads, cancelled', () => {
  it('stops sending work, ends its workers and says it was cancelled', async () => {
    const dir = freshDir();
    writeSpool(dir, FIXTURE_KEY, BUGS, [50, 50, 50, 50, 50, 50]);
    const stop = new AbortController();
    let seen = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of readSpool(dir, { keyHex: FIXTURE_KEY, env: {}, threads: 2, signal: stop.signal })) if (++seen === 20) stop.abort();
      })(),
      (e: Error & { code?: string }) => e.code === 'cancelled',
    );
    assert.equal(seen, 20, 'no capsule handed out after the cancel');
  });
});
