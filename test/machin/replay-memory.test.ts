// A machin replay's malloc settings (replay-engine/machin/replay-memory.ts): the user's own
// GLIBC_TUNABLES is kept, and the replay prints exactly what it prints without them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { replayMemoryEnv } from '../../replay-engine/machin/replay-memory';
import { machinPath, recordProgram } from '../support/machin';
import { tempDir } from './support';

// Two goroutines, values made as text at every store, and a panic at the end.
const PROGRAM = `func worker(out, n) {
    i := 0
    for i < n {
        s := str(i * 7)
        out <- len(s)
        i = i + 1
    }
    close(out)
}

func main() {
    ch := make(chan int)
    go worker(ch, 3000)
    total := 0
    for v := range ch {
        total = total + v
    }
    println(str(total))
    println(str(total / (total - total)))
}
`;

describe('the replay heap setting', () => {
  it("adds its tunables after the user's own, one arena only for a replay that prints on one CPU, and leaves what the user set alone", () => {
    const HUGE = 'glibc.malloc.hugetlb=1';
    const ONE_ARENA = 'glibc.malloc.arena_max=1';
    assert.deepEqual(replayMemoryEnv({ printing: false, oneCpu: true }, {}), { GLIBC_TUNABLES: HUGE });
    assert.deepEqual(replayMemoryEnv({ printing: true, oneCpu: true }, {}), { GLIBC_TUNABLES: `${HUGE}:${ONE_ARENA}` });
    assert.deepEqual(replayMemoryEnv({ printing: true, oneCpu: false }, {}), { GLIBC_TUNABLES: HUGE });
    assert.deepEqual(replayMemoryEnv({ printing: true, oneCpu: true }, { GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }), { GLIBC_TUNABLES: `glibc.malloc.tcache_count=0:${HUGE}:${ONE_ARENA}` });
    assert.deepEqual(replayMemoryEnv({ printing: true, oneCpu: true }, { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }), { GLIBC_TUNABLES: `glibc.malloc.arena_max=4:${HUGE}` });
    assert.deepEqual(replayMemoryEnv({ printing: false, oneCpu: false }, { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }), {});
  });

  it('changes nothing a replay prints: the probes, the output and the panic are the same with it and without', () => {
    const dir = tempDir('replay-memory-');
    const { trace } = recordProgram(dir, 'strings', PROGRAM);
    const replay = (tunables: Record<string, string>) => {
      const env = { ...process.env, ...tunables };
      delete env.GLIBC_TUNABLES;
      Object.assign(env, tunables);
      const r = spawnSync(machinPath(), ['replay', trace, '--verify', '--print', 's,total'], { cwd: path.dirname(trace), env, encoding: 'utf8', timeout: 60_000 });
      // (each goroutine's probes in its order: machin's @op and the order of two goroutines'
      // lines are racy from one replay to the next, with or without the setting)
      const probes = new Map<string, string[]>();
      const others: string[] = [];
      for (const line of r.stderr.split('\n')) {
        const m = /^probe (\S+) (\S+ = .*) @op\d+$/.exec(line);
        if (m) probes.set(m[1], [...(probes.get(m[1]) ?? []), m[2]]);
        else others.push(line);
      }
      return { status: r.status, stdout: r.stdout, others, probes: [...probes].sort() };
    };
    const plain = replay({});
    const tuned = replay(replayMemoryEnv({ printing: true, oneCpu: true }, {}));
    assert.equal(plain.probes.find(([g]) => g === '0.1')?.[1].at(-1), 's = 20993', "the worker's last string is printed");
    assert.match(plain.others.join('\n'), /divide by zero/);
    assert.deepEqual(tuned, plain);
  });
});
