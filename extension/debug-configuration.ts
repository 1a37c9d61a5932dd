// Launch configurations for the `frozen-run` debugger: a dynamic provider offering the recording
// in the active editor, and the resolver that completes a configuration (F5 with no launch.json,
// settings as defaults) and refuses keys in it: keys live in SecretStorage or the environment.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readConfig } from './config';
import { DEBUG_TYPE } from './debug-sessions';
import { isTrusted } from './trust';

export interface FrozenRunLaunch extends vscode.DebugConfiguration {
  recording: string;
  program?: string;
  stopOnEntry?: boolean;
  replayToPanic?: boolean;
  noToolchain?: boolean;
  machinPath?: string;
  tinPath?: string;
  timeLimitSeconds?: number;
  capsuleSizeLimitMB?: number;
  programRoots?: string[];
}

/** The recording the user is looking at: the active timeline, or an .mflrr text editor. */
export type ActiveRecording = () => vscode.Uri | undefined;

export function isRecordingPath(p: string): boolean {
  return /\.(mflrr|tcap)$/i.test(p);
}

export function launchFor(recording: vscode.Uri, how: 'panic' | 'start'): FrozenRunLaunch {
  const name = path.basename(recording.fsPath);
  return how === 'panic'
    ? { type: DEBUG_TYPE, request: 'launch', name: `Replay to panic: ${name}`, recording: recording.fsPath, replayToPanic: true }
    : { type: DEBUG_TYPE, request: 'launch', name: `Replay from start: ${name}`, recording: recording.fsPath, stopOnEntry: true };
}

/** Configuration properties that look like a key: refused, so keys never sit in launch.json. */
const KEY_PROPERTIES = /^(key|keyHex|capsuleKey|tinReplayKey|TIN_REPLAY_KEY)$/i;

/** Offered in "Run and Debug" > "Frozen Run...": the recording in the active editor. */
export class ActiveRecordingConfigurations implements vscode.DebugConfigurationProvider {
  constructor(private readonly activeRecording: ActiveRecording) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    const uri = this.activeRecording();
    if (!uri) return [];
    return [launchFor(uri, 'panic'), launchFor(uri, 'start')];
  }
}

/** Completes and checks every frozen-run configuration before a session starts. */
export class FrozenRunConfigurationResolver implements vscode.DebugConfigurationProvider {
  constructor(private readonly activeRecording: ActiveRecording) {}

  async resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined | null> {
    if (!config.type && !config.request && !config.name) {
      // F5 without a launch.json: replay the recording in the active editor.
      const uri = this.activeRecording();
      if (!uri) {
        await vscode.window.showInformationMessage('Frozen Run: open a recording (.mflrr or .tcap) first, then start debugging.');
        return undefined;
      }
      return launchFor(uri, 'panic');
    }
    const badKeys = Object.keys(config).filter((k) => KEY_PROPERTIES.test(k) || (k === 'env' && typeof config.env === 'object'));
    if (badKeys.length > 0) {
      await vscode.window.showErrorMessage(
        `Frozen Run: remove "${badKeys.join('", "')}" from the launch configuration: capsule keys are never kept in launch configurations. ` +
          'Use "Frozen Run: Set Capsule Key..." (kept in VS Code\'s secret storage) or set TIN_REPLAY_KEY before starting VS Code.',
      );
      return undefined;
    }
    return config;
  }

  async resolveDebugConfigurationWithSubstitutedVariables(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined | null> {
    const launch = config as FrozenRunLaunch;
    if (typeof launch.recording !== 'string' || !launch.recording.trim()) {
      await vscode.window.showErrorMessage('Frozen Run: the launch configuration needs "recording": the path of a .mflrr trace or .tcap capsule.');
      return undefined;
    }
    const base = folder?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    launch.recording = path.resolve(base, launch.recording);
    if (launch.program) launch.program = path.resolve(base, launch.program);
    const cfg = readConfig();
    launch.machinPath ??= cfg.machinPath;
    launch.tinPath ??= cfg.tinPath;
    launch.timeLimitSeconds ??= cfg.timeLimitMs / 1000;
    launch.machinReplayCores ??= cfg.machinReplayCores;
    launch.capsuleSizeLimitMB ??= cfg.capsuleSizeLimitMB;
    launch.programRoots ??= cfg.programRoots;
    // Belt and braces: VS Code itself refuses to debug in Restricted Mode.
    if (!isTrusted()) launch.noToolchain = true;
    return launch;
  }
}

export function registerDebugConfigurations(activeRecording: ActiveRecording): vscode.Disposable[] {
  return [
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ActiveRecordingConfigurations(activeRecording), vscode.DebugConfigurationProviderTriggerKind.Dynamic),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new FrozenRunConfigurationResolver(activeRecording)),
  ];
}
