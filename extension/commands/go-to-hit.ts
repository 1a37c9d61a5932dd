// Frozen Run: Go to Log Point Hit…: the Debug Console's lines of a log point open the program at the
// hit's line (DAP output events carry a source and a line, not a place in the run), so this picks a
// hit of any log point, as the console prints them, and moves the session there
// (frozenRun/gotoStatement). The picker filters by the hit's text, goroutine and function as typed.
import * as vscode from 'vscode';
import { REQUEST } from '../../debug-adapter/contract';
import type { LogHit } from '../../debug-adapter/log-point-hits';
import { frozenSession, hitPage, inProgram, mflLogPoints, type ProgramOf } from '../log-points';
import { hitDescription } from '../view-models/hit-words';

/** Hits listed per log point (the Hits view pages further). */
const PICKED = 2000;

interface HitItem extends vscode.QuickPickItem {
  hit?: LogHit;
}

export async function goToLogPointHit(programOf: ProgramOf): Promise<void> {
  const s = frozenSession();
  if (!s) return void vscode.window.showInformationMessage('Frozen Run: log point hits need a Frozen Run debug session: start one (Replay to Panic).');
  const items: HitItem[] = [];
  for (const bp of mflLogPoints()) {
    const line = bp.location.range.start.line + 1;
    items.push({ label: `line ${line}: ${bp.logMessage}`, kind: vscode.QuickPickItemKind.Separator });
    if (!(await inProgram(s, bp, programOf)).verified) continue;
    try {
      const page = await hitPage(s, bp, 0, PICKED);
      for (const hit of page.hits) items.push({ label: hit.text || '(empty)', description: hitDescription(hit), hit });
    } catch (e) {
      items.push({ label: (e as Error).message });
    }
  }
  if (!items.some((i) => i.hit)) return void vscode.window.showInformationMessage('Frozen Run: no log point of the program has a hit in this run.');
  const picked = await vscode.window.showQuickPick(items, { title: 'Go to Log Point Hit', placeHolder: 'A hit of a log point: the session goes there', matchOnDescription: true });
  if (picked?.hit) await s.customRequest(REQUEST.gotoStatement, { seq: picked.hit.seq });
}
