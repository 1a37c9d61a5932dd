// Where Did This Value Come From? (issue 30, point 3): from a variable's context menu in the
// Variables view (or the palette, asking for the name), the active session's frozenRun/valueOrigin
// for that variable in the selected frame, shown as a list: each link of the chain (store, copy,
// receive, send, call) with goroutine, function, line:column and value; picking one moves the
// session to that statement (frozenRun/gotoStatement) and shows the program there; the last row
// says where the chain leaves what the recording knows (an I/O record: picking it goes to the
// record). The list stays open to walk the chain; the timeline draws it (RunMarks).
import * as vscode from 'vscode';
import { REQUEST } from '../../debug-adapter/contract';
import { frameIndexOf } from '../../debug-adapter/frames';
import type { OriginChain, OriginStep } from '../../replay-engine/machin/source/value-origin';
import type { Ctx } from '../ctx';
import { recordingOf } from '../debug-sessions';
import { frozenSession } from '../log-points';
import { endRow, chainTitle, stepRow } from '../view-models/origin-words';

/** The argument VS Code passes from `debug/variables/context`. */
interface VariableContext {
  variable?: { name?: unknown; evaluateName?: unknown };
}

interface OriginItem extends vscode.QuickPickItem {
  step?: OriginStep;
  record?: number;
}

export async function showValueOrigin(ctx: Ctx, arg?: unknown): Promise<void> {
  const s = frozenSession();
  if (!s) return void vscode.window.showInformationMessage('Frozen Run: where a value came from is asked of a Frozen Run debug session: start one (Replay to Panic).');
  const v = arg && typeof arg === 'object' && 'variable' in arg ? (arg as VariableContext).variable : undefined;
  const name = typeof v?.name === 'string' ? v.name : typeof v?.evaluateName === 'string' ? v.evaluateName : await vscode.window.showInputBox({ title: 'Where did this value come from?', prompt: 'A variable of the selected frame' });
  if (!name) return;
  const item = vscode.debug.activeStackItem;
  const at = item && item.session.id === s.id ? { threadId: item.threadId, frame: 'frameId' in item ? frameIndexOf(item.frameId) : 0 } : {};
  let chain: OriginChain;
  try {
    chain = (await s.customRequest(REQUEST.valueOrigin, { variable: name, ...at })) as OriginChain;
  } catch (e) {
    return void vscode.window.showWarningMessage(`Frozen Run: where ${name} came from: ${(e as Error).message}`);
  }
  ctx.runMarks.setOrigin(recordingOf(s), chain);
  await pickLinks(ctx, s, chain);
}

async function pickLinks(ctx: Ctx, s: vscode.DebugSession, chain: OriginChain): Promise<void> {
  const items: OriginItem[] = chain.steps.map((step, k) => ({ ...stepRow(step, k), step }));
  const end = endRow(chain.end);
  items.push({ ...end, record: chain.end.kind === 'io' ? chain.end.record : undefined, iconPath: new vscode.ThemeIcon('debug-stackframe-dot') });
  const qp = vscode.window.createQuickPick<OriginItem>();
  qp.title = chainTitle(chain);
  qp.placeholder = 'A link of the chain: the session goes to that statement (the list stays open to walk it)';
  qp.items = items;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.ignoreFocusOut = true;
  qp.onDidAccept(async () => {
    const picked = qp.selectedItems[0];
    if (picked?.step) {
      await s.customRequest(REQUEST.gotoStatement, { seq: picked.step.seq });
      const file = ctx.programOf(s);
      if (file) {
        const at = new vscode.Position(picked.step.line - 1, Math.max(0, picked.step.column - 1));
        await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(at, at), preserveFocus: true, preview: true });
      }
    } else if (picked?.record !== undefined) {
      await s.customRequest(REQUEST.goto, { record: picked.record });
    }
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
}
