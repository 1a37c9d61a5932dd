// The HTML of a Frozen Run webview: the page from webview-ui/protocol.ts (strict CSP, one nonce'd
// script from dist/webview), with the webview's options limited to that folder.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { webviewHtml } from '../webview-ui/protocol';

export type WebviewBundle = 'timeline' | 'history' | 'compare';

export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [webviewRoot(extensionUri)] };
}

export function renderWebview(webview: vscode.Webview, extensionUri: vscode.Uri, bundle: WebviewBundle, title: string): string {
  const nonce = randomBytes(18).toString('base64');
  const scriptUri = webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot(extensionUri), `${bundle}.js`)).toString();
  return webviewHtml({ cspSource: webview.cspSource, nonce, scriptUri, title });
}
