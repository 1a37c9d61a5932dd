// The `frozen-run` launch configuration: what it may hold, how it is checked, and how it becomes
// engine options. A capsule key is never part of it (keys live in SecretStorage or the
// environment and reach the adapter through `frozenRun/setKey`).
import type { MachinCores } from '../replay-engine/machin/replay-cores';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { isAbsolute, resolve } from 'node:path';
import type { OpenOptions } from '../replay-engine/open-options';
import { MAX_CAPSULE_LIMIT_MB, validCapsuleLimit } from '../replay-engine/tcap/size-limit';

export interface FrozenRunLaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The recording: a `.mflrr` trace or a `.tcap` capsule. */
  recording: string;
  /** The program source to replay a trace with (else found from the trace's `program` line). */
  program?: string;
  /** Stop at the start of the recording instead of running to the first breakpoint. */
  stopOnEntry?: boolean;
  /** After configurationDone, go straight to the panic (or to the end, saying there was none). */
  replayToPanic?: boolean;
  machinPath?: string;
  tinPath?: string;
  /** Read the recording only: never run machin or tin. */
  noToolchain?: boolean;
  /**
   * Step through the program's statements (default true): machin replays the trace a second time
   * against an instrumented copy of the program. false: stepping and breakpoints by record only.
   */
  sourceLevel?: boolean;
  /** Time limit of each toolchain run, in seconds (default 60). */
  timeLimitSeconds?: number;
  /** `one`: each machin replay on one CPU of its own (default); `any`: where the system puts it (replay-cores.ts). */
  machinReplayCores?: MachinCores;
  /** Folders to look for the program in (the workspace folders). */
  programRoots?: string[];
  /** Capsules larger than this many MiB (1 to 2047) are refused before they are read (default: FROZEN_RUN_CAPSULE_LIMIT_MB, else 1,024). */
  capsuleSizeLimitMB?: number;
  /** Working folder that relative paths are resolved against. */
  cwd?: string;
  /**
   * Start stopped at this cursor position (ops or effects done, 0..stepCount): on the last record
   * done then (reason `entry`). Instead of stopOnEntry; not with replayToPanic.
   */
  startPosition?: number;
  /** Log the Debug Adapter Protocol messages to the Debug Console (keys and the recording's text are left out). */
  trace?: boolean;
  /** Start stopped on this record (0-based, -1 the start); exact where a position covers an op and the I/O after it. Wins over startPosition. */
  startRecord?: number;
}

/** The attributes a user writes (package.json's launch schema lists exactly these). */
export const KNOWN_LAUNCH_ATTRIBUTES = [
  'recording', 'program', 'stopOnEntry', 'replayToPanic', 'machinPath', 'tinPath', 'noToolchain', 'sourceLevel', 'timeLimitSeconds', 'machinReplayCores',
  'programRoots', 'cwd', 'startPosition', 'startRecord', 'trace', 'capsuleSizeLimitMB',
] as const;

/** Plus what VS Code adds to every configuration. */
const KNOWN = new Set<string>([...KNOWN_LAUNCH_ATTRIBUTES, 'noDebug', '__restart', 'type', 'request', 'name', '__configurationTarget', '__sessionId']);

export const KEY_REFUSED =
  'A capsule key never goes in a launch configuration: set it with the "Frozen Run: Set Capsule Key..." command ' +
  '(kept in VS Code\'s secret storage) or in the TIN_REPLAY_KEY environment variable, and remove the `key` attribute.';

/** Checks a launch configuration; returns the problem as a message for the user, or the resolved arguments. */
export function checkLaunchArguments(raw: Record<string, unknown> | undefined | null): FrozenRunLaunchArguments | string {
  if (raw === null || raw === undefined || typeof raw !== 'object' || Array.isArray(raw)) {
    return 'The launch configuration needs `recording`: the path of a .mflrr trace or a .tcap capsule.';
  }
  for (const secretish of ['key', 'keyHex', 'capsuleKey', 'tinReplayKey']) {
    if (secretish in raw) return KEY_REFUSED;
  }
  const args = raw as unknown as FrozenRunLaunchArguments;
  if (typeof args.recording !== 'string' || args.recording.trim() === '') {
    return 'The launch configuration needs `recording`: the path of a .mflrr trace or a .tcap capsule.';
  }
  const strings = ['program', 'machinPath', 'tinPath', 'cwd'] as const;
  for (const k of strings) {
    if (args[k] !== undefined && typeof args[k] !== 'string') return `\`${k}\` must be a path (a string).`;
  }
  for (const k of ['stopOnEntry', 'replayToPanic', 'noToolchain', 'sourceLevel', 'trace'] as const) {
    if (args[k] !== undefined && typeof args[k] !== 'boolean') return `\`${k}\` must be true or false.`;
  }
  if (args.machinReplayCores !== undefined && args.machinReplayCores !== 'one' && args.machinReplayCores !== 'any') {
    return '`machinReplayCores` must be "one" (each machin replay on one CPU of its own) or "any".';
  }
  if (args.timeLimitSeconds !== undefined && !(typeof args.timeLimitSeconds === 'number' && args.timeLimitSeconds > 0 && args.timeLimitSeconds <= 86_400)) {
    return '`timeLimitSeconds` must be a number of seconds between 1 and 86400.';
  }
  if (args.capsuleSizeLimitMB !== undefined && !(typeof args.capsuleSizeLimitMB === 'number' && validCapsuleLimit(args.capsuleSizeLimitMB))) {
    return `\`capsuleSizeLimitMB\` must be a whole number of MiB from 1 to ${MAX_CAPSULE_LIMIT_MB}.`;
  }
  if (args.programRoots !== undefined && !(Array.isArray(args.programRoots) && args.programRoots.every((x) => typeof x === 'string'))) {
    return '`programRoots` must be a list of folder paths.';
  }
  for (const k of ['startPosition', 'startRecord'] as const) {
    const v = args[k];
    const min = k === 'startRecord' ? -1 : 0;
    if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= min)) {
      return k === 'startRecord'
        ? '`startRecord` must be a record number (0 for the first record, -1 for the start).'
        : '`startPosition` must be a whole number of ops (or effects) done, from 0.';
    }
  }
  if (args.replayToPanic && (args.startPosition !== undefined || args.startRecord !== undefined)) {
    return '`replayToPanic` and `startPosition`/`startRecord` each say where to stop first: keep one of them.';
  }
  const unknown = Object.keys(raw).filter((k) => !KNOWN.has(k) && !k.startsWith('__'));
  if (unknown.length) {
    return `Unknown launch attribute(s): ${unknown.join(', ')}. Frozen Run knows: ${KNOWN_LAUNCH_ATTRIBUTES.join(', ')}.`;
  }
  const base = args.cwd && isAbsolute(args.cwd) ? args.cwd : process.cwd();
  const abs = (p: string) => resolve(base, p);
  return {
    ...args,
    recording: abs(args.recording),
    program: args.program ? abs(args.program) : undefined,
    programRoots: args.programRoots?.map(abs),
  };
}

export function openOptions(
  args: FrozenRunLaunchArguments,
  keyHex: string | undefined,
  onOutput: (text: string) => void,
  signal: AbortSignal,
): OpenOptions {
  return {
    noToolchain: args.noToolchain,
    sourceLevel: args.sourceLevel !== false,
    machinPath: args.machinPath,
    tinPath: args.tinPath,
    program: args.program,
    programRoots: args.programRoots,
    timeLimitMs: args.timeLimitSeconds ? args.timeLimitSeconds * 1000 : undefined,
    machinCores: args.machinReplayCores,
    capsuleSizeLimitMB: args.capsuleSizeLimitMB,
    keyHex,
    onOutput,
    signal,
    // Replay to Panic stops as soon as machin has the panic; the values follow (a second replay).
    deferValues: args.replayToPanic === true,
    // A program the configuration names was chosen by the user; one found elsewhere outside the
    // workspace is not run without that explicit choice.
    confirmProgram: async (path) => args.program !== undefined && resolve(path) === args.program,
  };
}
