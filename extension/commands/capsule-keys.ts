// Set Capsule Key..., Forget Capsule Key and Test a Secret...: the capsule key commands. The key
// goes from the input box to SecretStorage and the engine; it is never shown or logged.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { capsuleWithSecrets, checkSecret, secretHandles } from '../../replay-engine/tcap/secret';
import type { Ctx } from '../ctx';
import { errorText } from '../recordings';
import { pickRecording } from './recording-arg';

export async function setCapsuleKey(ctx: Ctx, arg?: unknown): Promise<void> {
  const uri = await pickRecording(arg, ctx.activeRecording, 'Set Capsule Key', true);
  if (!uri) return;
  if (await ctx.keys.askAndStore(uri)) {
    ctx.store.invalidateCapsules();
    void vscode.window.showInformationMessage(`Frozen Run: key saved for the capsules in ${path.basename(path.dirname(uri.fsPath))}/.`);
  }
}

export async function forgetCapsuleKey(ctx: Ctx, arg?: unknown): Promise<void> {
  const uri = await pickRecording(arg, ctx.activeRecording, 'Forget Capsule Key', true);
  if (!uri) return;
  const had = await ctx.keys.forget(uri);
  ctx.store.invalidateCapsules();
  const folder = path.basename(path.dirname(uri.fsPath));
  void vscode.window.showInformationMessage(
    had ? `Frozen Run: the key for the capsules in ${folder}/ was removed from secret storage.` : `Frozen Run: no key was stored for the capsules in ${folder}/.`,
  );
}

export async function testSecret(ctx: Ctx, arg?: unknown): Promise<void> {
  const uri = await pickRecording(arg, ctx.activeRecording, 'Test a Secret', true);
  if (!uri) return;
  let rec;
  try {
    rec = capsuleWithSecrets(await ctx.store.read(uri), uri.fsPath);
  } catch (err) {
    void vscode.window.showErrorMessage(errorText(err));
    return;
  }
  // Nothing to test against: say so before asking for a secret.
  if (secretHandles(rec).length === 0) {
    void vscode.window.showInformationMessage('Frozen Run: this capsule holds no secret handles.');
    return;
  }
  const candidate = await vscode.window.showInputBox({
    title: `Test a secret against ${path.basename(uri.fsPath)}`,
    prompt: 'Secret header values and query arguments are recorded as handles (tin-secret:…). Type a candidate value to see whether it is the secret behind one. It is not stored or logged.',
    password: true,
    ignoreFocusOut: true,
  });
  if (candidate === undefined) return;
  const result = checkSecret(rec, candidate);
  if (result.handles.length === 0) {
    void vscode.window.showInformationMessage('Frozen Run: this capsule holds no secret handles.');
  } else if (result.matches.length === 0) {
    void vscode.window.showInformationMessage(`Frozen Run: no match. The candidate is not the secret behind any of the ${result.handles.length} handle(s) in this capsule.`);
  } else {
    void vscode.window.showInformationMessage(`Frozen Run: match. The candidate is the secret behind: ${result.matches.map((m) => m.where).join('; ')}.`);
  }
}
