// The `frozen-run` debug adapter, run inline in the extension host (debug-adapter/session.ts),
// handed the extension's recording store: a session opens its recording there, so a recording a
// timeline already shows is not read or replayed with machin a second time, and a capsule's key
// goes from SecretStorage to the engine without ever travelling in a launch configuration, a
// message log or a process environment. The toolbar's reverse buttons are the extension's own
// (package.json debug/toolBar), in one group.
import * as vscode from 'vscode';
import { FrozenRunSession } from '../debug-adapter/session';
import { DEBUG_TYPE } from './debug-sessions';
import type { RecordingStore } from './recordings';

export class InlineDebugAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly store: RecordingStore) {}

  createDebugAdapterDescriptor(): vscode.DebugAdapterDescriptor {
    return new vscode.DebugAdapterInlineImplementation(new FrozenRunSession({ open: (args, options) => this.store.forSession(args, options), ownReverseButtons: true }));
  }
}

export function registerDebugAdapter(store: RecordingStore): vscode.Disposable {
  return vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new InlineDebugAdapterFactory(store));
}
