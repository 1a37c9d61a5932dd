// The extension's settings (package.json `contributes.configuration`), read in one place.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_CAPSULE_LIMIT_MB, validCapsuleLimit } from '../replay-engine/tcap/size-limit';
import type { MachinCores } from '../replay-engine/machin/replay-cores';

export interface FrozenRunConfig {
  machinPath?: string;
  tinPath?: string;
  timeLimitMs: number;
  /** One CPU per machin replay, or any (replay-engine/machin/replay-cores.ts). */
  machinReplayCores: MachinCores;
  /** Folders searched for a recording's program: the setting's folders, then the workspace folders. */
  programRoots: string[];
  /** Capsules larger than this (MiB) are refused before they are read. */
  capsuleSizeLimitMB: number;
}

/** The setting as the engine takes it (package.json bounds it; a hand-edited value out of range is the default). */
function capsuleLimit(mb: number): number {
  return validCapsuleLimit(mb) ? mb : DEFAULT_CAPSULE_LIMIT_MB;
}

export function readConfig(): FrozenRunConfig {
  const c = vscode.workspace.getConfiguration('frozenRun');
  const nonEmpty = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);
  const seconds = c.get<number>('timeLimitSeconds', 60);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const extra = (c.get<string[]>('programRoots', []) ?? [])
    .filter((p) => typeof p === 'string' && p.trim())
    .map((p) => (path.isAbsolute(p) ? p : path.resolve(folders[0] ?? '.', p)));
  return {
    machinPath: nonEmpty(c.get<string>('machinPath')),
    tinPath: nonEmpty(c.get<string>('tinPath')),
    timeLimitMs: Math.max(1, Number.isFinite(seconds) ? seconds : 60) * 1000,
    machinReplayCores: c.get<string>('machinReplayCores', 'one') === 'any' ? 'any' : 'one',
    programRoots: [...extra, ...folders],
    capsuleSizeLimitMB: capsuleLimit(c.get<number>('capsuleSizeLimitMB', DEFAULT_CAPSULE_LIMIT_MB)),
  };
}
