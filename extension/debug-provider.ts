// The `frozen-run` debug adapter, run inline in the extension host (debug-adapter/session.ts).
// Inline, the capsule key goes from SecretStorage straight into the session object: it never
// travels in a launch configuration, a message log or a process environment. The toolbar's
// reverse buttons are the extension's own (package.json debug/toolBar), in one group.
import * as vscode from 'vscode';
import { FrozenRunSession } from '../debug-adapter/session';
import { DEBUG_TYPE } from './debug-sessions';
import type { CapsuleKeys } from './keys';
import { isCapsule } from './recordings';

export class InlineDebugAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly keys: CapsuleKeys) {}

  async createDebugAdapterDescriptor(session: vscode.DebugSession): Promise<vscode.DebugAdapterDescriptor> {
    let keyHex: string | undefined;
    const recording = session.configuration.recording;
    if (typeof recording === 'string' && isCapsule(vscode.Uri.file(recording))) {
      // Asks once when the capsule's folder has no key and none is in the environment.
      keyHex = (await this.keys.keyFor(vscode.Uri.file(recording), { ask: true }))?.keyHex;
    }
    return new vscode.DebugAdapterInlineImplementation(new FrozenRunSession({ keyHex, ownReverseButtons: true }));
  }
}

export function registerDebugAdapter(context: vscode.ExtensionContext, keys: CapsuleKeys): void {
  context.subscriptions.push(vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new InlineDebugAdapterFactory(keys)));
}
