// What a session is given by whoever starts it: the extension (inline, extension/debug-provider.ts)
// or debug-adapter/main.ts (standalone over stdio).
import type { Recording } from '../replay-engine/model/recording';
import type { OpenOptions } from '../replay-engine/open-options';
import type { FrozenRunLaunchArguments } from './launch-config';

/** Opens the recording a launch names: the engine's openRecording, or the extension's store. */
export type RecordingSource = (args: FrozenRunLaunchArguments, options: OpenOptions) => Promise<Recording>;

export interface FrozenRunSessionOptions {
  /** Capsule key (64 hex digits) from the extension's SecretStorage. Never logged. */
  keyHex?: string;
  /** Environment for TIN_REPLAY_KEY / MACHIN / TIN (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where recordings come from (default: the engine reads and enriches each launch's own). */
  open?: RecordingSource;
  /**
   * The client shows its own reverse buttons (the extension's Reverse Continue and Step Back, in
   * the toolbar order it wants): `supportsStepBack` is not announced, so VS Code adds none of its
   * own; the `stepBack` and `reverseContinue` requests still work.
   */
  ownReverseButtons?: boolean;
}
