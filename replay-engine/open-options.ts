// What a caller (CLI, debug adapter, extension, language server) may say when opening a recording.
import type { MachinCores } from './machin/replay-cores';

export interface ToolchainOptions {
  /** Do not run any toolchain: trace-only / capsule-only. */
  noToolchain?: boolean;
  /** Explicit path of machin / tin (else the MACHIN / TIN environment variable, else PATH). */
  machinPath?: string;
  tinPath?: string;
  /** Explicit program source for a trace (overrides the trace's `program` line). */
  program?: string;
  /** Folders to look for the program in (the workspace folders). */
  programRoots?: string[];
  /** Per toolchain run. Default 60 s. */
  timeLimitMs?: number;
  /**
   * machin traces: `one` runs each replay on one CPU of its own (side-by-side replays on two
   * different ones), far faster where goroutines hand over often; `any` lets the system place
   * its threads (goroutines that compute in parallel between ops). Default:
   * FROZEN_RUN_MACHIN_CORES, else `one` (machin/replay-cores.ts).
   */
  machinCores?: MachinCores;
  signal?: AbortSignal;
  /** Toolchain output as it arrives, for an output channel. */
  onOutput?: (text: string) => void;
  /**
   * machin traces: return as soon as machin's panic and verdict are known, and get the variable
   * values from a second replay afterwards; `recording.valuesPending` resolves when they are in.
   * For a caller that shows the panic first (a debug session). Default: one replay for all.
   */
  deferValues?: boolean;
  /**
   * machin traces: also replay against an instrumented copy of the program, for statement-level
   * stepping (`recording.statements`, docs/source-level.md). It costs one more machin run than
   * without it (a plain replay first, for the panic); with deferValues it is the values replay.
   * Default: on. The CLI's commands that print no statements turn it off.
   */
  sourceLevel?: boolean;
  /** What the toolchain bridge is doing, one line at a time ("replaying against the instrumented program"), for a progress notification. */
  onToolchainProgress?: (message: string) => void;
  /** Asked before running a program found outside programRoots; false stops the toolchain run. */
  confirmProgram?: (path: string) => Promise<boolean>;
}

export interface OpenOptions extends ToolchainOptions {
  /** Capsule key: 64 hex digits. Never printed or logged. */
  keyHex?: string;
  /** A file holding the capsule key (64 hex digits); refused when group or others can read it. */
  keyFile?: string;
  /**
   * Capsules larger than this many MiB (1 to 2047) are refused before they are read (a capsule is
   * read whole into memory). Default: FROZEN_RUN_CAPSULE_LIMIT_MB, else 1,024 (tcap/size-limit.ts).
   */
  capsuleSizeLimitMB?: number;
  /** Environment to read TIN_REPLAY_KEY / MACHIN / TIN / FROZEN_RUN_CAPSULE_LIMIT_MB from (default process.env). */
  env?: NodeJS.ProcessEnv;
}
