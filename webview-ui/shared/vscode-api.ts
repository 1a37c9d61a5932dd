// The one handle a webview has on VS Code: typed postMessage and persisted state.
// acquireVsCodeApi may be called only once per page, so every part of a view shares this.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;

function vscode(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

export function postToHost<M>(message: M): void {
  vscode().postMessage(message);
}

export function loadState<S>(): Partial<S> | undefined {
  const s = vscode().getState();
  return s && typeof s === 'object' ? (s as Partial<S>) : undefined;
}

export function saveState<S>(state: S): void {
  vscode().setState(state);
}

/** Calls `handle` for every message the host posts (window `message` events carry them). */
export function onHostMessage<M extends { type: string }>(handle: (message: M) => void): void {
  window.addEventListener('message', (event: MessageEvent) => {
    const data: unknown = event.data;
    if (data && typeof data === 'object' && typeof (data as { type?: unknown }).type === 'string') handle(data as M);
  });
}
