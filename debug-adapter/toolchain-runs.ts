// The toolchain runs of a session's opens (machin, tin): one abort signal stops them all (each
// run's whole process group: SIGTERM, SIGKILL after a grace), and the open under way is known, so
// a disconnect can wait until its children have exited and its temporary copy is removed.
/** Longest a disconnect waits for the toolchain to be stopped. */
const STOP_WAIT_MS = 5_000;

export class ToolchainRuns {
  private readonly abort = new AbortController();
  /** The open under way (reading, toolchain runs); settles only once its children have exited and its copy is removed. */
  private opening: Promise<void> = Promise.resolve();

  /** The signal every open is given. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** `opened` is the open under way now. */
  track(opened: Promise<unknown>): void {
    this.opening = opened.then(() => undefined, () => undefined);
  }

  stop(): void {
    this.abort.abort();
  }

  /**
   * The open under way has ended (its children exited, its copy removed). Bounded: the group gets
   * SIGKILL 500 ms after SIGTERM, so only a child stuck in the kernel could take longer.
   */
  stopped(): Promise<void> {
    return Promise.race([this.opening, new Promise<void>((r) => setTimeout(r, STOP_WAIT_MS).unref?.())]);
  }
}
