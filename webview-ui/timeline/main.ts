// The timeline webview: header facts, toolbar, a canvas with one lane per goroutine or task,
// and a details panel. Talks to the extension host through webview-ui/protocol.ts only.
import './elements';
import baseCss from '../shared/base.css';
import timelineCss from './timeline.css';
import { PROTOCOL_VERSION, unpackModel, type HostToTimeline, type RunMarksMsg, type TimelineCommandId, type TimelineModel, type TimelineToHost } from '../protocol';
import { clear, h } from '../shared/dom';
import { adoptStyles } from '../shared/styles';
import { onThemeChange } from '../shared/theme-colors';
import { loadState, onHostMessage, postToHost, saveState } from '../shared/vscode-api';
import { renderError } from '../shared/error-view';
import { renderBanner, renderFacts, renderLegend, renderPanicLine, renderToolbar, renderToolchainNote, renderVerdict, toolbarButtons } from './chrome';
import { DetailsPanel } from './details';
import { TimelineIndex } from './model-index';
import { resolvePalette } from './palette';
import { TimelineView } from './timeline-view';
import { runMarksText } from './run-marks-layer';
import type { ViewState } from './viewport';

/** What survives a reload (vscode.setState): keyed to the recording so another file starts fresh. */
interface SavedState extends ViewState {
  file: string;
  recordCount: number;
  selected: number;
}

adoptStyles(baseCss, timelineCss);

const root = document.getElementById('root') ?? document.body.appendChild(h('div', { id: 'root' }));
const send = (m: TimelineToHost) => postToHost(m);

let current: { view: TimelineView; details: DetailsPanel; model: TimelineModel } | null = null;
/** Messages that may arrive before the model; applied once it is there. */
let pendingCursor: number | null = null;
/** The record the debug cursor is on (the details pane follows it). */
let cursorRecord = -1;
let pendingDivergence: number | null = null;
let bannerText: string | null = null;
const bannerSlot = h('div', {});
/** Says where Replay Against Build diverged, next to the mark on the canvas. */
const divergenceLine = h('div', { class: 'divergence-line', role: 'status' });
let divergenceMessage = '';
/** The session's log point hits and origin chain (issue 30), and the line that says what they are. */
let pendingRunMarks: RunMarksMsg | null = null;
const runMarksLine = h('div', { class: 'run-marks-line', role: 'status' });

function showDivergence(): void {
  const r = pendingDivergence;
  divergenceLine.textContent =
    r === null ? '' : divergenceMessage ? `Replay against build: ${divergenceMessage}` : `Replay against build diverged at ${current?.model.traits.units.step ?? 'record'} ${r}`;
}

function showError(message: string, actions: Array<{ id: TimelineCommandId; label: string }> = []): void {
  current?.view.dispose();
  current = null;
  clear(root);
  root.appendChild(renderError(message, undefined, actions.map((a) => ({ ...a, run: () => send({ type: 'command', id: a.id }) }))));
}

function showBanner(): void {
  clear(bannerSlot);
  if (bannerText) bannerSlot.appendChild(renderBanner(bannerText));
}

let saveTimer = 0;

/** Save the view state now (before the view is replaced) or soon (while the user pans). */
function persist(now = false): void {
  if (saveTimer) window.clearTimeout(saveTimer);
  saveTimer = 0;
  const save = () => {
    saveTimer = 0;
    if (!current) return;
    const s: SavedState = { file: current.model.fileName, recordCount: current.model.recordCount, ...current.view.viewState() };
    saveState(s);
  };
  if (now) save();
  else saveTimer = window.setTimeout(save, 150);
}

function showModel(model: TimelineModel): void {
  const t0 = performance.now();
  const index = new TimelineIndex(model);
  performance.measure('timeline-index', { start: t0, end: performance.now() });
  if (current) {
    // The same recording sent again (e.g. once machin's results arrived): keep the user's view.
    persist(true);
    current.view.dispose();
  }
  const debugFrom = (record: number) => send({ type: 'goto', position: index.positionOf(record), record });
  const details = new DetailsPanel(index, model.request, debugFrom, (line, column) => send({ type: 'openProgram', line, column }));
  const view = new TimelineView(index, resolvePalette(model.kinds), {
    select(record) {
      details.showPending(record);
      send({ type: 'requestDetails', record });
    },
    goto: debugFrom,
    // A click selects; only with a session running (a cursor shown) does it move the session.
    clicked(record) {
      if (pendingCursor !== null) debugFrom(record);
    },
    changed: () => persist(),
  });
  clear(root);
  root.append(
    renderToolbar(toolbarButtons(model.traits, model.panic !== null), (id) => send({ type: 'command', id })),
    bannerSlot,
  );
  if (model.bestEffort) {
    root.appendChild(renderBanner('Best-effort trace: the program calls C through FFI, so a replay may diverge from the recorded run and can never be certified.'));
  }
  if (model.verdict?.verdict === 'DIVERGED') {
    root.appendChild(renderBanner(`Diverged replay: machin replay --verify says ${model.verdict.detail}. What follows the divergence may not be what the recorded run did.`));
  }
  root.append(renderFacts(model.fileName, model.facts));
  if (model.verdict) root.appendChild(renderVerdict(model.verdict));
  if (model.toolchainNote) root.appendChild(renderToolchainNote(model.toolchainNote, () => send({ type: 'command', id: 'openMachinSetting' })));
  const panicLine = renderPanicLine(model.panic, model.threads, index.stepCount, model.traits.units);
  if (panicLine) root.appendChild(panicLine);
  root.append(divergenceLine, runMarksLine);
  root.append(renderLegend(model.traits, model.panic !== null), view.element, view.findBar, view.status, details.element, view.laneList, view.announcer);
  current = { view, details, model };

  const saved = loadState<SavedState>();
  view.viewport.fitAll();
  if (saved && saved.file === model.fileName && saved.recordCount === model.recordCount) {
    view.restore(saved);
    if (typeof saved.selected === 'number' && saved.selected >= 0) view.select(saved.selected, false);
  }
  if (pendingCursor !== null) view.setCursor(pendingCursor);
  if (pendingCursor !== null && cursorRecord >= 0) view.select(cursorRecord, false);
  if (pendingDivergence !== null) view.setDivergence(pendingDivergence);
  showDivergence();
  view.setRunMarks(pendingRunMarks);
}

onThemeChange(() => current?.view.setPalette(resolvePalette(current.model.kinds)));

onHostMessage<HostToTimeline>((m) => {
  switch (m.type) {
    case 'model': {
      if (m.version !== PROTOCOL_VERSION) {
        showError(`This timeline speaks protocol version ${PROTOCOL_VERSION} but the extension sent version ${m.version}. Reload the window after updating Frozen Run.`);
        return;
      }
      let model: TimelineModel;
      try {
        const t0 = performance.now();
        model = unpackModel(m.data);
        performance.measure('timeline-unpack', { start: t0, end: performance.now() });
        if (!model || typeof model !== 'object' || !Array.isArray(model.threads) || !Array.isArray(model.kinds) || !ArrayBuffer.isView(model.recordThread) || !ArrayBuffer.isView(model.recordKind) || !ArrayBuffer.isView(model.stepRecord)) {
          throw new Error('not a timeline model');
        }
      } catch (e) {
        showError(`The timeline data from the extension could not be read: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      try {
        showModel(model);
      } catch (e) {
        // TimelineIndex checks the arrays agree; a model that does not is shown as an error.
        showError(`The timeline data from the extension is inconsistent: ${e instanceof Error ? e.message : String(e)}`);
      }
      return;
    }
    case 'cursor':
      pendingCursor = m.position;
      current?.view.setCursor(m.position);
      // The details pane follows the debug cursor: the record it is on is selected and shown.
      cursorRecord = m.position !== null && typeof m.record === 'number' ? m.record : -1;
      if (current && cursorRecord >= 0 && cursorRecord !== current.view.selected) current.view.select(cursorRecord, false);
      // Before any record the details say so, in the status bar's words, rather than keep an old selection.
      if (current && m.position !== null && m.record === -1) current.details.showBeforeFirst(m.atStart !== false);
      return;
    case 'divergence':
      pendingDivergence = m.record;
      divergenceMessage = m.message ?? '';
      showDivergence();
      current?.view.setDivergence(m.record);
      return;
    case 'runMarks':
      pendingRunMarks = m.hits.length || m.origin ? m : null;
      runMarksLine.textContent = runMarksText(pendingRunMarks);
      current?.view.setRunMarks(pendingRunMarks);
      return;
    case 'recordDetails':
      current?.details.showRecord(m.view);
      return;
    case 'banner':
      bannerText = m.text;
      showBanner();
      return;
    case 'error':
      showError(m.message, m.actions);
      return;
  }
});

send({ type: 'ready', version: PROTOCOL_VERSION });
