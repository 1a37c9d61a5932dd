// Starts the Frozen Run language server (dist/language-server.js, over IPC) for trace text, the
// decoded capsule document and program sources, and feeds it what debug sessions learn: the panic
// and thread labels (frozenRun/runFacts) and the watched values at the cursor for inline values
// in the program (frozenRun/cursorValues). The contract lives in language-server/protocol.ts.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  CAPSULE_LANGUAGE,
  CAPSULE_SCHEME,
  CURSOR_VALUES_NOTIFICATION,
  MFLRR_LANGUAGE,
  RUN_FACTS_NOTIFICATION,
  type CursorValuesParams,
  type RunFactsParams,
} from '../language-server/protocol';

export async function startLanguageClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
  const module = context.asAbsolutePath('dist/language-server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: MFLRR_LANGUAGE },
      { language: CAPSULE_LANGUAGE },
      { scheme: CAPSULE_SCHEME },
      // Program sources, for inline values during a session.
      { scheme: 'file', pattern: '**/*.mfl' },
    ],
    outputChannelName: 'Frozen Run Language Server',
  };
  const client = new LanguageClient('frozenRunLanguageServer', 'Frozen Run Language Server', serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push(client);
  return client;
}

/** The debug-session side the forwarding needs; extension/debug-sessions.ts provides it. */
export interface SessionEvents {
  onDidMoveCursor: vscode.Event<{ session: vscode.DebugSession; recording: string; thread: number; threadLabel: string }>;
  onCustomEvent: vscode.Event<vscode.DebugSessionCustomEvent>;
  onDidEndSession: vscode.Event<{ session: vscode.DebugSession; recording: string }>;
}

/**
 * Sends the server what sessions learn. The panic comes from the adapter's `frozenRun/causalChain`
 * event; labels from its thread names; values at the cursor from standard DAP requests (the
 * current thread's program frame and its "Program (...)" scope), so any adapter version that
 * shows them in the Variables view feeds inline values too.
 */
export function forwardSessionFacts(client: LanguageClient, sessions: SessionEvents): vscode.Disposable {
  const recordingUris = (recording: string) => {
    const file = vscode.Uri.file(recording);
    return [file, vscode.Uri.from({ scheme: CAPSULE_SCHEME, path: `${file.path}.decoded` })].map((u) => u.toString());
  };
  const sendFacts = (recording: string, facts: Omit<RunFactsParams, 'uri'>) => {
    for (const uri of recordingUris(recording)) void client.sendNotification(RUN_FACTS_NOTIFICATION, { uri, ...facts } satisfies RunFactsParams);
  };
  const labelled = new Set<string>();
  let latest = 0;
  return vscode.Disposable.from(
    sessions.onCustomEvent((e) => {
      if (e.event !== 'frozenRun/causalChain' || !e.body) return;
      const body = e.body as { position?: unknown; thread?: unknown; message?: unknown };
      const recording = recordingOf(e.session);
      if (!recording || typeof body.position !== 'number' || typeof body.thread !== 'string') return;
      sendFacts(recording, { panic: { position: body.position, thread: body.thread, message: typeof body.message === 'string' ? body.message : undefined } });
    }),
    sessions.onDidMoveCursor(async (c) => {
      const ticket = ++latest;
      if (!labelled.has(c.session.id)) {
        labelled.add(c.session.id);
        const labels = await threadLabels(c.session);
        if (labels) sendFacts(c.recording, { labels });
      }
      const values = await cursorValues(c.session, c.thread + 1, c.threadLabel);
      // A newer cursor move may have finished first: only the latest is sent.
      if (ticket === latest) void client.sendNotification(CURSOR_VALUES_NOTIFICATION, values ?? { programUri: '', thread: '', values: {} });
    }),
    sessions.onDidEndSession((e) => {
      labelled.delete(e.session.id);
      latest++;
      void client.sendNotification(CURSOR_VALUES_NOTIFICATION, { programUri: '', thread: '', values: {} } satisfies CursorValuesParams);
    }),
  );
}

function recordingOf(session: vscode.DebugSession): string | undefined {
  const r = (session.configuration as { recording?: unknown }).recording;
  return typeof r === 'string' ? r : undefined;
}

/** Thread names of the adapter: `0.1 feed` (machin) or `task 1 (label)` (Tin). */
async function threadLabels(session: vscode.DebugSession): Promise<Record<string, string> | undefined> {
  try {
    const { threads } = (await session.customRequest('threads')) as { threads: Array<{ name: string }> };
    const labels: Record<string, string> = {};
    for (const { name } of threads) {
      const m = /^task (\d+) \((.+)\)$/.exec(name) ?? /^(\d+(?:\.\d+)*) (.+)$/.exec(name);
      if (m) labels[m[1]] = m[2];
    }
    return Object.keys(labels).length ? labels : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A frame's source path as the extension host sees the file. In a remote window (code-server,
 * SSH) VS Code hands a custom request's result back with paths as `vscode-remote://HOST/path`
 * URIs, while the extension host (and the language server beside it) names the file `file:///path`.
 */
function programUri(path: string): vscode.Uri {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return vscode.Uri.file(path);
  const uri = vscode.Uri.parse(path);
  return uri.scheme === 'vscode-remote' || uri.scheme === 'file' ? vscode.Uri.file(uri.path) : uri;
}

interface Frame {
  id: number;
  line: number;
  source?: { path?: string };
}

async function cursorValues(session: vscode.DebugSession, threadId: number, thread: string): Promise<CursorValuesParams | undefined> {
  if (threadId <= 0) return undefined;
  try {
    const { stackFrames } = (await session.customRequest('stackTrace', { threadId })) as { stackFrames: Frame[] };
    const frame = stackFrames.find((f) => f.source?.path && /\.mfl$/i.test(f.source.path));
    if (!frame?.source?.path) return undefined;
    const { scopes } = (await session.customRequest('scopes', { frameId: frame.id })) as { scopes: Array<{ name: string; variablesReference: number }> };
    const watched = scopes.find((s) => s.name.startsWith('Program ('));
    const values: Record<string, string> = {};
    if (watched) {
      const { variables } = (await session.customRequest('variables', { variablesReference: watched.variablesReference })) as {
        variables: Array<{ name: string; value: string }>;
      };
      for (const v of variables) if (/^[A-Za-z_]\w*$/.test(v.name)) values[v.name] = v.value;
    }
    // DAP lines here start at 1 (VS Code's default); the protocol's lines start at 0.
    return { programUri: programUri(frame.source.path).toString(), thread, values, functionLine: Math.max(0, frame.line - 1) };
  } catch {
    return undefined;
  }
}
