// How a machin replay's program gets its memory. Every value machin's runtime makes as text (a
// probe's value: `mfl_str_i`, 24 bytes from malloc, never freed) is fresh heap, and on this
// project's virtual machine each page first touched costs a fault of several microseconds. With
// glibc's tunable `glibc.malloc.hugetlb=1` (glibc 2.35 and later) malloc asks for transparent huge
// pages for its heap (madvise), so one fault maps 2 MiB instead of 4 KiB. Measured on the 600k-op
// one-core helper trace (docs/machin.md, "Huge pages for the replay's heap"): the statements-only
// replay 22,800 -> 14,300 page faults, 1.04 -> 0.92 s; the plain replay 15,000 -> 10,000, 0.79 ->
// 0.73 s. It changes no output: where the system has no transparent huge pages, an older glibc,
// or another C library, the setting is ignored. A GLIBC_TUNABLES of the user's is kept: this
// one is added after it.
export const REPLAY_MALLOC_TUNABLE = 'glibc.malloc.hugetlb=1';

/** The environment for a replay: the tunable after whatever GLIBC_TUNABLES already holds. */
export function replayMemoryEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const given = env.GLIBC_TUNABLES;
  if (given && given.split(':').some((t) => t.startsWith('glibc.malloc.hugetlb='))) return {}; // the user chose
  return { GLIBC_TUNABLES: given ? `${given}:${REPLAY_MALLOC_TUNABLE}` : REPLAY_MALLOC_TUNABLE };
}
