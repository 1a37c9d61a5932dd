// Capsule keys. Where a key comes from, in order:
//   1. the public test key, when the capsule is a saved regression test (listed in a
//      cases.json beside it): used without asking (the engine finds it);
//   2. SecretStorage, one key per capsule folder (set with "Set Capsule Key..." or when asked);
//   3. TIN_REPLAY_KEY in the environment VS Code runs in (the engine reads it);
//   4. asked for once, with a prompt that says what it is, then kept in SecretStorage.
// A key is only ever handed to the engine / debug adapter; never to settings, launch
// configurations, logs, the output channel or a webview.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isSavedTest } from '../replay-engine/tcap/key-source';

const HEX64 = /^[0-9a-fA-F]{64}$/;

export type KeySource = 'saved-test' | 'secret-storage' | 'environment' | 'prompt';

export interface CapsuleKey {
  /** 64 hex digits, or undefined when the engine finds the key itself (saved test, environment). */
  keyHex?: string;
  source: KeySource;
}

export class CapsuleKeys {
  constructor(private readonly secrets: vscode.SecretStorage, private readonly env: NodeJS.ProcessEnv = process.env) {}

  private static storageKey(capsule: vscode.Uri): string {
    return `frozenRun.capsuleKey:${vscode.Uri.file(path.dirname(capsule.fsPath)).toString()}`;
  }

  /** The key to open `capsule` with; undefined when there is none and the user did not give one. */
  async keyFor(capsule: vscode.Uri, options: { ask: boolean }): Promise<CapsuleKey | undefined> {
    if (isSavedTest(capsule.fsPath)) return { source: 'saved-test' };
    const stored = await this.secrets.get(CapsuleKeys.storageKey(capsule));
    if (stored && HEX64.test(stored)) return { keyHex: stored, source: 'secret-storage' };
    if (this.env.TIN_REPLAY_KEY) return { source: 'environment' };
    if (!options.ask) return undefined;
    const keyHex = await this.askAndStore(capsule);
    return keyHex ? { keyHex, source: 'prompt' } : undefined;
  }

  /** Prompts for the folder's key and keeps it in SecretStorage. Returns it, or undefined when dismissed. */
  async askAndStore(capsule: vscode.Uri): Promise<string | undefined> {
    const folder = path.dirname(capsule.fsPath);
    const entered = await vscode.window.showInputBox({
      title: `Capsule key for ${path.basename(capsule.fsPath)}`,
      prompt:
        `Tin capsules are encrypted. Enter the key the server ran with (TIN_REPLAY_KEY: 64 hex digits). ` +
        `It is kept in VS Code's secret storage for the capsules in the folder ${path.basename(folder) || folder}/, never in settings or logs.`,
      placeHolder: '64 hex digits',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (HEX64.test(v.trim()) ? undefined : 'A capsule key is 64 hex digits (32 bytes), as set in TIN_REPLAY_KEY on the server.'),
    });
    if (entered === undefined) return undefined;
    const keyHex = entered.trim().toLowerCase();
    await this.secrets.store(CapsuleKeys.storageKey(capsule), keyHex);
    return keyHex;
  }

  /** Removes the stored key of the capsule's folder; true when there was one. */
  async forget(capsule: vscode.Uri): Promise<boolean> {
    const k = CapsuleKeys.storageKey(capsule);
    const had = (await this.secrets.get(k)) !== undefined;
    await this.secrets.delete(k);
    return had;
  }

  /** Fires when a stored key changes (another window, Set/Forget). */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith('frozenRun.capsuleKey:')) listener();
    });
  }
}
