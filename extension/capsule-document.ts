// A capsule's decoded text (one line per effect, as the debug adapter and the language server
// number them), served read-only under the `frozen-run-capsule:` scheme: "Open as Text" for a
// capsule, and the document the language server decorates. Produced by the engine.
import * as vscode from 'vscode';
import { CAPSULE_SCHEME } from '../language-server/protocol';
import { errorText, type RecordingStore } from './recordings';

export function capsuleDocumentUri(capsule: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: CAPSULE_SCHEME, path: `${capsule.path}.decoded` });
}

export function capsuleOfDocument(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.file(uri.path.replace(/\.decoded$/, ''));
}

export class CapsuleDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly store: RecordingStore) {
    this.sub = store.onDidChange((uri) => this.changed.fire(capsuleDocumentUri(uri)));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    try {
      const rec = await this.store.read(capsuleOfDocument(uri));
      return rec.decodedDocument ? rec.decodedDocument() : '';
    } catch (err) {
      return `# ${errorText(err)}\n`;
    }
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
