// The commands, one table of `(ctx) => handler` (as rust-analyzer's editors/code): the table's
// type makes every id of ids.ts have a handler, and `registerCommands` registers them all.
import * as vscode from 'vscode';
import { REQUEST } from '../../debug-adapter/contract';
import type { Ctx } from '../ctx';
import { forgetCapsuleKey, setCapsuleKey, testSecret } from './capsule-keys';
import { compareWith } from './compare';
import { debugActiveRecording } from './debug-recording';
import { goToLogPointHit } from './go-to-hit';
import { openVariableHistory } from './history';
import { COMMAND_IDS, type CommandId } from './ids';
import { ReplayCommands } from './replay';
import { reverseContinue, runBackToCursor, stepBack, stepBackInto, stepBackOut } from './stepping';
import { replayAgainstBuild, saveAsRegressionTest } from './tin-replay';
import { showValueOrigin } from './value-origin';
import { openAsText, openSetting, openTimeline, showToolchainOutput } from './views';

// VS Code passes a command whatever its caller gives (menus a Uri, code lenses strings, the
// timeline numbers): each handler checks its own arguments.
type Handler = (...args: unknown[]) => unknown;

const COMMANDS: Record<CommandId, (ctx: Ctx) => Handler> = {
  'frozenRun.replayToPanic': (ctx) => (arg?: unknown) => new ReplayCommands(ctx).replayToPanic(arg),
  'frozenRun.replayToHere': (ctx) => (uri?: unknown, line?: unknown) => new ReplayCommands(ctx).replayToHere(uri, line),
  'frozenRun.gotoPosition': (ctx) => (uri: unknown, position: unknown, record: unknown, statement?: unknown) => new ReplayCommands(ctx).gotoPosition(uri, position, record, statement),
  'frozenRun.toggleLineHitCounts': (ctx) => () => ctx.lineCounts.toggle(),
  'frozenRun.hits.filter': (ctx) => () => ctx.hits.askFilter(),
  'frozenRun.hits.show': (ctx) => () => ctx.hits.show(),
  'frozenRun.hits.more': (ctx) => (bp?: unknown) => ctx.hits.more(bp),
  // The Debug Console's hit lines open the program's line; this moves the session to a hit.
  'frozenRun.goToLogPointHit': (ctx) => () => goToLogPointHit((s) => ctx.programOf(s)),
  'frozenRun.valueOrigin': (ctx) => (arg?: unknown) => showValueOrigin(ctx, arg),
  // A log point's hit or a link of a value's origin: the active session goes to that statement event.
  'frozenRun.goToStatement': () => (seq: unknown) =>
    typeof seq === 'number' && vscode.debug.activeDebugSession?.type === 'frozen-run' ? vscode.debug.activeDebugSession.customRequest(REQUEST.gotoStatement, { seq }) : undefined,
  'frozenRun.openVariableHistory': (ctx) => (arg?: unknown) => openVariableHistory(ctx, arg),
  'frozenRun.replayAgainstBuild': (ctx) => (arg?: unknown) => replayAgainstBuild(ctx, arg),
  'frozenRun.saveAsRegressionTest': (ctx) => (arg?: unknown) => saveAsRegressionTest(ctx, arg),
  'frozenRun.setCapsuleKey': (ctx) => (arg?: unknown) => setCapsuleKey(ctx, arg),
  'frozenRun.forgetCapsuleKey': (ctx) => (arg?: unknown) => forgetCapsuleKey(ctx, arg),
  'frozenRun.testSecret': (ctx) => (arg?: unknown) => testSecret(ctx, arg),
  'frozenRun.compareWith': compareWith,
  'frozenRun.showToolchainOutput': (ctx) => () => showToolchainOutput(ctx),
  'frozenRun.reverseContinue': (ctx) => () => reverseContinue(ctx),
  'frozenRun.stepBack': (ctx) => () => stepBack(ctx),
  'frozenRun.stepBackInto': (ctx) => () => stepBackInto(ctx),
  'frozenRun.stepBackOut': (ctx) => () => stepBackOut(ctx),
  'frozenRun.runBackToCursor': (ctx) => (uri?: unknown, record?: unknown) => runBackToCursor(ctx, uri, record),
  // From the timeline's toolbar the second argument is its group; from a menu it is not a number.
  'frozenRun.openAsText': (ctx) => (arg?: unknown, column?: unknown) => openAsText(ctx, arg, typeof column === 'number' ? column : undefined),
  'frozenRun.openTimeline': (ctx) => (arg?: unknown) => openTimeline(ctx, arg),
  'frozenRun.debugActiveRecording': (ctx) => () => debugActiveRecording(ctx),
  'frozenRun.openMachinSetting': () => () => openSetting('frozenRun.machinPath'),
  'frozenRun.openTinSetting': () => () => openSetting('frozenRun.tinPath'),
  'frozenRun.capsules.filter': (ctx) => () => ctx.capsules.filter(),
  'frozenRun.capsules.clearFilter': (ctx) => () => ctx.capsules.clearFilter(),
  'frozenRun.capsules.addFolder': (ctx) => () => ctx.capsules.addFolder(),
  'frozenRun.capsules.refresh': (ctx) => () => ctx.capsules.refresh(),
  'frozenRun.capsules.setFolderKey': (ctx) => (node?: unknown) => ctx.capsules.setFolderKey(node),
  'frozenRun.capsules.removeFolder': (ctx) => (node?: unknown) => ctx.capsules.removeFolder(node),
};

export function registerCommands(ctx: Ctx): vscode.Disposable[] {
  return COMMAND_IDS.map((id) => vscode.commands.registerCommand(id, COMMANDS[id](ctx)));
}
