// Replay Against Build... and Save as Regression Test...: run `tin replay CAPSULE --against BUILD`
// (with `--save-test NAME --issue N` for the second) through the engine's tin bridge: trusted
// workspaces only, the build confirmed when it is outside the workspace, the key only in tin's
// environment, progress with a cancel, the report in the output channel and the divergence
// marked on the timeline.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { authenticatedKey } from '../../replay-engine/tcap/read-capsule';
import { findTin } from '../../replay-engine/tin/find-tin';
import type { ReplayReport } from '../../replay-engine/tin/replay-report';
import { divergenceText, suggestedTestName, TEST_NAME } from '../tin-report-text';
import { checkReplayRequest, runTinReplay } from '../../replay-engine/tin/tin-replay';
import { readConfig } from '../config';
import type { Ctx } from '../ctx';
import { withToolchainProgress } from '../output';
import { errorText } from '../recordings';
import { TIMELINE_VIEW_TYPE } from '../timeline-editor';
import { explainRestricted, isTrusted } from '../trust';
import { pickRecording, recordingFromArg } from './recording-arg';

export function replayAgainstBuild(ctx: Ctx, arg?: unknown): Promise<void> {
  return againstBuild(ctx, arg, false);
}

export function saveAsRegressionTest(ctx: Ctx, arg?: unknown): Promise<void> {
  return againstBuild(ctx, arg, true);
}

async function againstBuild(ctx: Ctx, arg: unknown, save: boolean): Promise<void> {
  const what = save ? 'Save as Regression Test' : 'Replay Against Build';
  const given = recordingFromArg(arg, ctx.activeRecording);
  if (given && !given.fsPath.toLowerCase().endsWith('.tcap')) {
    void vscode.window.showInformationMessage(`Frozen Run: ${what} runs tin on a Tin capsule (.tcap). A machin trace is replayed by machin: use Replay to Panic.`);
    return;
  }
  const capsule = await pickRecording(arg, ctx.activeRecording, what, true);
  if (!capsule) return;
  if (!isTrusted()) return explainRestricted(what);
  // tin first: asking for a build and a test name is no use without it.
  const tin = await locateTin(what);
  if (!tin) return;

  let recording;
  try {
    recording = await ctx.store.read(capsule);
  } catch (err) {
    void vscode.window.showErrorMessage(errorText(err));
    return;
  }
  const build = await pickBuild(capsule, save);
  if (!build) return;
  if (!(await ctx.programs.confirm(build))) return;

  let saveTest: { name: string; issue: number } | undefined;
  if (save) {
    saveTest = await askTestName(capsule);
    if (!saveTest) return;
  }
  const kinds = recording.timeline.kinds.filter((k) => !k.startsWith('sched.'));
  const live = kinds.length
    ? await vscode.window.showQuickPick(kinds, {
        title: `${what}: effects to perform for real (--live)`,
        placeHolder: 'Usually none: every effect is served from the capsule. Press Enter to continue.',
        canPickMany: true,
        // A step of several (build, name, effects): focus moving elsewhere does not drop the flow.
        ignoreFocusOut: true,
      })
    : [];
  if (live === undefined) return;

  const cfg = readConfig();
  const folder = vscode.workspace.getWorkspaceFolder(capsule)?.uri.fsPath ?? path.dirname(capsule.fsPath);
  let report: ReplayReport;
  try {
    const request = { capsule: capsule.fsPath, build, live, saveTest, cwd: folder };
    checkReplayRequest(request);
    const options = await ctx.store.options(capsule, false);
    const key = await authenticatedKey(capsule.fsPath, options);
    report = await withToolchainProgress(ctx.output, `Frozen Run: tin replay ${path.basename(capsule.fsPath)} --against ${path.basename(build)}`, (signal, onOutput) =>
      runTinReplay({ ...request, tin, key: key.key, timeLimitMs: cfg.timeLimitMs, signal, onOutput: (_stream, text) => onOutput(text) }),
    );
  } catch (err) {
    ctx.output.error(errorText(err));
    void vscode.window.showErrorMessage(errorText(err), 'Show Toolchain Output').then((a) => a && ctx.output.show(true));
    return;
  }
  await showReport(ctx, capsule, report, saveTest, folder);
}

/**
 * tin's path, or undefined after saying at once that it is missing, in editor words: the
 * frozenRun.tinPath setting (with a button to it), never the CLI's flags.
 */
async function locateTin(what: string): Promise<string | undefined> {
  const tinPath = readConfig().tinPath;
  try {
    return findTin({ tinPath });
  } catch {
    const where = tinPath ? `the frozenRun.tinPath setting names ${tinPath}, which is not an executable file` : 'tin is not on PATH and the frozenRun.tinPath setting is empty';
    const open = 'Open Setting';
    const a = await vscode.window.showErrorMessage(`Frozen Run: ${what} runs tin, which was not found: ${where}. Install Tin, or set frozenRun.tinPath to the tin executable.`, open);
    if (a === open) await vscode.commands.executeCommand('frozenRun.openTinSetting');
    return undefined;
  }
}

async function pickBuild(capsule: vscode.Uri, save: boolean): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: save ? 'The .tin source the regression test is for' : 'The build to replay against: a tin binary or a .tin source',
    defaultUri: vscode.workspace.getWorkspaceFolder(capsule)?.uri ?? vscode.Uri.file(path.dirname(capsule.fsPath)),
    canSelectMany: false,
    openLabel: save ? 'Save Test For This Source' : 'Replay Against This Build',
    filters: save ? { 'Tin source': ['tin'] } : undefined,
  });
  return picked?.[0]?.fsPath;
}

async function askTestName(capsule: vscode.Uri): Promise<{ name: string; issue: number } | undefined> {
  const name = await vscode.window.showInputBox({
    title: 'Save as Regression Test: name',
    prompt: 'The test\'s name (letters, digits, _ and -): tin writes tests/regressions/NAME.tcap and an entry in cases.json',
    value: suggestedTestName(capsule.fsPath),
    validateInput: (v) => (TEST_NAME.test(v) ? undefined : 'A test name is letters, digits, _ and -, starting with a letter or _.'),
    ignoreFocusOut: true,
  });
  if (!name) return undefined;
  const issue = await vscode.window.showInputBox({
    title: 'Save as Regression Test: issue',
    prompt: 'The issue number this test is for',
    validateInput: (v) => (/^[1-9]\d{0,15}$/.test(v.trim()) ? undefined : 'A positive issue number.'),
    ignoreFocusOut: true,
  });
  if (!issue) return undefined;
  return { name, issue: Number(issue.trim()) };
}

function describe(report: ReplayReport): string {
  const parts: string[] = [];
  if (report.status !== undefined) parts.push(`status ${report.status} (recorded ${report.recordedStatus})`);
  const d = report.divergence;
  if (d) parts.push(divergenceText(d));
  if (report.notServed) parts.push(`${report.notServed} recorded effect(s) not served`);
  if (report.message) parts.push(report.message);
  if (report.outcome === 'faithful') parts.push('faithful: the build made the same calls as the recording');
  return parts.join('; ');
}

async function showReport(ctx: Ctx, capsule: vscode.Uri, report: ReplayReport, saveTest: { name: string } | undefined, folder: string): Promise<void> {
  const text = describe(report);
  ctx.output.info(`tin replay ${path.basename(capsule.fsPath)}: ${report.outcome} (exit ${report.exitCode}): ${text}`);
  if (report.body) ctx.output.info(`response body:\n${report.body}`);
  const d = report.divergence;
  if (d) {
    ctx.divergences.mark(capsule, d.effect, text);
    await vscode.commands.executeCommand('vscode.openWith', capsule, TIMELINE_VIEW_TYPE);
  } else {
    ctx.divergences.mark(capsule, null);
  }
  const show = 'Show Toolchain Output';
  if (report.outcome === 'unreadable' || report.outcome === 'usage' || report.outcome === 'failed') {
    const a = await vscode.window.showErrorMessage(`Frozen Run: tin replay failed (exit ${report.exitCode}): ${text || 'see the output'}`, show);
    if (a) ctx.output.show(true);
    return;
  }
  if (saveTest && report.outcome === 'faithful') {
    const cases = 'Open cases.json';
    const a = await vscode.window.showInformationMessage(`Frozen Run: regression test "${saveTest.name}" saved in tests/regressions: ${text}`, cases, show);
    if (a === cases) await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, 'tests', 'regressions', 'cases.json')));
    else if (a) ctx.output.show(true);
    return;
  }
  if (saveTest) {
    const a = await vscode.window.showWarningMessage(`Frozen Run: regression test "${saveTest.name}" not saved: tin saves a test only from a replay that does not diverge. ${text}`, show);
    if (a) ctx.output.show(true);
    return;
  }
  const a = await (d ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(`Frozen Run: replay against build: ${text}`, show);
  if (a) ctx.output.show(true);
}
