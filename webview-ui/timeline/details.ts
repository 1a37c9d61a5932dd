// The details panel: the selected record decoded (I/O bytes, effect request/result), and for a
// capsule the request that started it all.
import type { DecodedValueMsg, RecordViewMsg } from '../protocol';
import { clear, custom, h } from '../shared/dom';
import { renderValue } from '../shared/value-tree';
import type { TimelineIndex } from './model-index';
import { ioPlace } from '../../replay-engine/model/step-words';

export class DetailsPanel {
  readonly element = h('section', { class: 'details', 'aria-label': 'Record details', tabindex: '-1' });
  private shown = -1;

  /**
   * @param debugFrom starts (or moves) a debug session at a record: the panel's explicit action.
   * @param openProgram opens the program at a statement (1-based line and column).
   */
  constructor(
    private index: TimelineIndex,
    private request: DecodedValueMsg | undefined,
    private debugFrom: (record: number) => void = () => undefined,
    private openProgram: (line: number, column: number) => void = () => undefined,
  ) {
    this.showNothing();
  }

  /** The buttons for the shown record: Debug from Here, and Open in program when its statement is known. */
  private actions(record: number): HTMLElement[] {
    const s = this.index.statementOf(record);
    if (!s) return [this.debugButton(record)];
    const open = custom('vscode-button', { secondary: true, 'data-command': 'openProgram', title: `Open ${s.file} at line ${s.line}, column ${s.column}` }, 'Open in program');
    open.addEventListener('click', () => this.openProgram(s.line, s.column));
    return [h('div', { class: 'record-statement' }, `${s.op} · ${s.file}:${s.line}:${s.column}`), this.debugButton(record), open];
  }

  /** The button that debugs from the shown record (a click only selects while no session runs). */
  private debugButton(record: number): HTMLElement {
    const b = custom('vscode-button', { secondary: true, 'data-command': 'debugFromHere', title: 'Start a replay stopped on this record (or move the running one here)' }, 'Debug from Here');
    b.addEventListener('click', () => this.debugFrom(record));
    return b;
  }

  showNothing(): void {
    clear(this.element);
    this.shown = -1;
    this.element.appendChild(h('p', { class: 'empty-hint' }, 'Click a record (or focus the timeline and use the arrow keys) to see it decoded here.'));
    this.appendRequest();
  }

  /** The session is before every record: at the start (`start · 0/N ops done`), or at a statement before op 0. */
  showBeforeFirst(atStart: boolean): void {
    clear(this.element);
    this.shown = -1;
    const unit = this.index.model.traits.units.step;
    const n = this.index.stepCount;
    this.element.appendChild(h('h2', {}, atStart ? `start · 0/${n} ${unit}s done` : `before ${unit} 0/${n}`));
    this.element.appendChild(h('p', { class: 'empty-hint' }, atStart ? 'No record has happened yet: step forward, or click a record to see it.' : 'Statements that run before the first op: no record has happened yet.'));
    this.appendRequest();
  }

  /** The record was selected; its decoded view is on its way from the host. */
  showPending(record: number): void {
    this.shown = record;
    clear(this.element);
    this.element.appendChild(h('h2', {}, describeRecord(this.index, record)));
    this.element.append(...this.actions(record));
    const summary = this.index.model.summaries?.[record];
    if (summary !== undefined) this.element.appendChild(h('div', { class: 'record-summary' }, summary));
    this.element.appendChild(h('p', { class: 'empty-hint' }, 'Decoding…'));
    this.appendRequest();
  }

  showRecord(view: RecordViewMsg): void {
    if (view.record !== this.shown) return; // an answer for an older selection
    clear(this.element);
    this.element.appendChild(h('h2', {}, describeRecord(this.index, view.record)));
    this.element.append(...this.actions(view.record));
    const unit = this.index.model.traits.units.step;
    // `trace line`: beside a program place (`reorder.mfl:11:9`) a bare line number reads as the program's.
    this.element.appendChild(h('div', { class: 'record-meta' }, `trace line ${view.line} · ${view.kind} · ${view.step >= 0 ? `${view.position}/${this.index.stepCount} ${unit}s done after it` : `consumed by its thread ${ioPlace(view.position, this.index.stepCount, unit)}`}`));
    this.element.appendChild(h('div', { class: 'record-summary' }, view.summary));
    this.element.appendChild(renderValue(view.value, 'value'));
    this.appendRequest();
  }

  private appendRequest(): void {
    if (!this.request) return;
    this.element.appendChild(h('h2', {}, 'Request'));
    this.element.appendChild(renderValue(this.request, 'request', 0, 1));
  }
}

/**
 * "Record 12/60 · op 5/40 · 0.1 feed · sched": the same words the aria-live region announces. At
 * source level a schedule op names its statement instead of its kind: "... · 0 · recv · bank.mfl:8".
 */
export function describeRecord(index: TimelineIndex, r: number): string {
  const m = index.model;
  const step = index.stepOf(r);
  // Ops are numbered from 0, as the Call Stack and the status bar number them; a capsule's effects too.
  const unit = m.traits.units.step;
  const where = step >= 0 ? `${unit} ${step}/${index.stepCount}` : `I/O read ${ioPlace(index.stepsBefore(r), index.stepCount, unit)}`;
  const kind = index.statementLabel(r) || (m.kinds[m.recordKind[r]] ?? '?');
  // Records 0-based too, as in the Variables view, launch configurations and compare --json.
  return `Record ${r}/${index.recordCount} · ${where} · ${index.laneLabel(m.recordThread[r])} · ${kind}`;
}
