// How a machin replay's program gets its memory (glibc's malloc tunables, GLIBC_TUNABLES). Every
// value machin's runtime makes as text (a probe's value: `mfl_str_i`, 24 bytes of its arena, a
// malloc of 40 never freed) is fresh heap, and on this project's virtual machine each page first
// touched costs a fault of several microseconds. So:
// - every replay: `glibc.malloc.hugetlb=1` (glibc 2.35 and later): malloc asks for transparent
//   huge pages for its heap (madvise), so one fault maps 2 MiB instead of 4 KiB;
// - a replay that prints probes (`--print`) on one CPU of its own (replay-cores.ts):
//   `glibc.malloc.arena_max=1`. A goroutine's thread otherwise mallocs from an arena of its own,
//   mmap'd in 64 MiB heaps that get no huge pages; on one CPU the goroutines never malloc at the
//   same time, so one arena costs no waiting. (On any CPU, goroutines computing in parallel
//   between their ops would wait for each other's mallocs: not asked for there.)
// Measured on the 600k-op one-core helper traces, three runs each, one CPU, SCHED_BATCH
// (docs/machin.md, "Huge pages for the replay's heap"). It changes no output; where the system has
// no transparent huge pages, an older glibc or another C library, the settings are ignored. A
// GLIBC_TUNABLES of the user's is kept: these are added after it, and one the user set is left
// as given.
const EVERY_REPLAY = ['glibc.malloc.hugetlb=1'];
const PRINTING_ON_ONE_CPU = ['glibc.malloc.arena_max=1'];

/** The environment for a replay: its tunables after whatever GLIBC_TUNABLES already holds. */
export function replayMemoryEnv(replay: { printing: boolean; oneCpu: boolean }, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const given = env.GLIBC_TUNABLES ? env.GLIBC_TUNABLES.split(':') : [];
  const set = new Set(given.map((t) => t.split('=')[0]));
  const wanted = [...EVERY_REPLAY, ...(replay.printing && replay.oneCpu ? PRINTING_ON_ONE_CPU : [])].filter((t) => !set.has(t.split('=')[0]));
  return wanted.length > 0 ? { GLIBC_TUNABLES: [...given, ...wanted].join(':') } : {};
}
