// What the timeline marks of the whole run (issue 30), per recording: the hits of the program's log
// points, as the active Frozen Run session answers them (frozenRun/logPointHits), and the value
// origin chain last asked for in that session (Where Did This Value Come From?). Asked again when
// the breakpoints change, the active session changes or its statements arrive; cleared when the
// session ends. The timeline editor places them on its lanes (view-models/run-marks-model.ts).
import * as vscode from 'vscode';
import type { OriginChain } from '../replay-engine/machin/source/value-origin';
import { recordingOf, samePath, type DebugSessions } from './debug-sessions';
import { frozenSession, hitPage, inProgram, mflLogPoints, type ProgramOf } from './log-points';
import type { HitMoment } from './view-models/run-marks-model';

/** Hits marked per log point (a line hit more often shows its first ones; hitCount says how many). */
export const MARKED_HITS = 10_000;

export interface RunMarksOf {
  hits: HitMoment[];
  hitCount: number;
  origin: OriginChain | null;
}

export class RunMarks implements vscode.Disposable {
  private readonly byFile = new Map<string, RunMarksOf>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** The recording (its path) whose marks changed. */
  readonly onDidChange = this.changed.event;
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];

  constructor(sessions: DebugSessions, private readonly programOf: ProgramOf) {
    this.subscriptions.push(
      vscode.debug.onDidChangeBreakpoints(() => void this.refreshHits()),
      vscode.debug.onDidChangeActiveDebugSession(() => void this.refreshHits()),
      sessions.onStatementsReady(() => void this.refreshHits()),
      sessions.onDidEndSession(({ recording }) => {
        if (!recording) return;
        for (const f of [...this.byFile.keys()]) if (samePath(f, recording)) this.byFile.delete(f);
        this.changed.fire(recording);
      }),
    );
  }

  get(file: string): RunMarksOf | undefined {
    for (const [f, m] of this.byFile) if (samePath(f, file)) return m;
    return undefined;
  }

  setOrigin(file: string, origin: OriginChain | null): void {
    const m = this.entry(file);
    m.origin = origin;
    this.changed.fire(file);
  }

  private entry(file: string): RunMarksOf {
    let m = this.get(file);
    if (!m) this.byFile.set(file, (m = { hits: [], hitCount: 0, origin: null }));
    return m;
  }

  private async refreshHits(): Promise<void> {
    const s = frozenSession();
    const gen = ++this.generation;
    if (!s) return;
    const file = recordingOf(s);
    const hits: HitMoment[] = [];
    let hitCount = 0;
    for (const bp of mflLogPoints()) {
      if (!(await inProgram(s, bp, this.programOf)).verified) continue;
      try {
        const page = await hitPage(s, bp, 0, MARKED_HITS);
        for (const h of page.hits) hits.push({ goroutine: h.goroutine, position: h.position });
        hitCount += page.hits.length + (page.next < page.arrivals ? page.arrivals - page.next : 0);
      } catch {
        // No statements yet: asked again when they arrive.
      }
    }
    if (gen !== this.generation) return;
    const m = this.entry(file);
    m.hits = hits;
    m.hitCount = hitCount;
    this.changed.fire(file);
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
