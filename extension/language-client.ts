// Starts the Frozen Run language server (dist/language-server.js, over IPC) for trace text, the
// decoded capsule document and program sources, and feeds it what debug sessions learn: the panic
// and thread labels (frozenRun/runFacts) and the watched values at the cursor for inline values
// in the program (frozenRun/cursorValues). The server's contract lives in
// language-server/protocol.ts, the adapter's in debug-adapter/contract.ts.
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
import { EVENT, type CausalChainEventBody, type CursorEventBody, type ThreadsEventBody } from '../debug-adapter/contract';

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
  onDidMoveCursor: vscode.Event<{ session: vscode.DebugSession; recording: string; body: CursorEventBody }>;
  onCustomEvent: vscode.Event<vscode.DebugSessionCustomEvent>;
  onDidEndSession: vscode.Event<{ session: vscode.DebugSession; recording: string }>;
}

const NO_VALUES: CursorValuesParams = { programUri: '', thread: '', values: {} };

/**
 * Sends the server what sessions learn, from the adapter's events (debug-adapter/contract.ts): the
 * panic from its causal chain event, thread labels from its threads event, and the watched values
 * of the stopped thread from its cursor event.
 */
export function forwardSessionFacts(client: LanguageClient, sessions: SessionEvents): vscode.Disposable {
  const recordingUris = (recording: string) => {
    const file = vscode.Uri.file(recording);
    return [file, vscode.Uri.from({ scheme: CAPSULE_SCHEME, path: `${file.path}.decoded` })].map((u) => u.toString());
  };
  const sendFacts = (recording: string, facts: Omit<RunFactsParams, 'uri'>) => {
    for (const uri of recordingUris(recording)) void client.sendNotification(RUN_FACTS_NOTIFICATION, { uri, ...facts } satisfies RunFactsParams);
  };
  return vscode.Disposable.from(
    sessions.onCustomEvent((e) => {
      const recording = recordingOf(e.session);
      if (!recording || !e.body) return;
      if (e.event === EVENT.causalChain) {
        const body = e.body as CausalChainEventBody;
        sendFacts(recording, { panic: { position: body.position, thread: body.thread, message: body.message } });
      } else if (e.event === EVENT.threads) {
        const labels: Record<string, string> = {};
        for (const t of (e.body as ThreadsEventBody).threads) if (t.label) labels[t.id] = t.label;
        if (Object.keys(labels).length) sendFacts(recording, { labels });
      }
    }),
    sessions.onDidMoveCursor((c) => {
      const w = c.body.watched;
      const values: CursorValuesParams = w && c.body.thread !== null
        ? { programUri: vscode.Uri.file(w.programPath).toString(), thread: c.body.thread, values: w.values, functionLine: w.functionLine, assignedLines: w.assignedLines, thisReplayOnly: w.thisReplayOnly }
        : NO_VALUES;
      void client.sendNotification(CURSOR_VALUES_NOTIFICATION, values);
    }),
    sessions.onDidEndSession(() => void client.sendNotification(CURSOR_VALUES_NOTIFICATION, NO_VALUES)),
  );
}

function recordingOf(session: vscode.DebugSession): string | undefined {
  const r = (session.configuration as { recording?: unknown }).recording;
  return typeof r === 'string' ? r : undefined;
}
