// The interactive canvas: owns the viewport, the selection, the debug cursor and the marks,
// turns mouse, wheel, trackpad and keyboard input into pans, zooms and selections, and redraws
// at most once per animation frame.
import { lowerBound } from '../../replay-engine/model/lower-bound';
import { h } from '../shared/dom';
import type { TimelineIndex } from './model-index';
import type { Palette } from './palette';
import { TimelineRenderer, type Marks } from './renderer';
import { AXIS_HEIGHT, GUTTER_WIDTH, LANE_HEIGHT, Viewport, type ViewState } from './viewport';
import { describeRecord } from './details';
import { attachPointer } from './pointer-controller';
import { LaneRows } from './lane-rows';
import type { RunMarksMsg } from '../protocol';

export interface TimelineViewEvents {
  /** A record was selected (by click or keyboard). */
  select(record: number): void;
  /** The user asked to debug from a record (Enter or Space on the selection). */
  goto(record: number): void;
  /** A record was clicked (after it was selected): moves a running session, starts none. */
  clicked(record: number): void;
  /** The view changed in a way worth persisting. */
  changed(): void;
}

const ZOOM_STEP = 1.5;

export class TimelineView {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly status = h('div', { class: 'status', 'aria-hidden': 'true' });
  readonly announcer = h('div', { class: 'sr-only', 'aria-live': 'polite', role: 'status' });
  readonly laneList: HTMLElement;
  /** "Find goroutine": a filter over the lanes, and how many it shows. */
  readonly findBar: HTMLElement;
  readonly findInput: HTMLInputElement;
  private readonly laneCount = h('span', { class: 'lane-count', id: 'lane-count', role: 'status' });
  readonly viewport: Viewport;
  readonly rows: LaneRows;
  /** The rows the lane list holds now ([first, last), and the filter they were made for). */
  private listed = { first: -1, last: -1, filter: '', count: -1 };
  private renderer: TimelineRenderer;
  private marks: Marks = { selected: -1, cursor: null, divergence: null, hover: -1, run: null };
  private frame = 0;
  private firstPaintDone = false;
  private framesMeasured = 0;

  constructor(private index: TimelineIndex, palette: Palette, private events: TimelineViewEvents) {
    const m = index.model;
    this.canvas = h('canvas', {
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'timeline',
      'aria-label': `Timeline: ${index.recordCount} records, ${index.stepCount} ${m.traits.units.stepsLong}, ${index.laneCount} ${m.traits.units.threads}. Arrow keys move the selection, plus and minus zoom, Enter goes to the selected record, slash finds a ${m.traits.units.thread}.`,
    });
    this.element = h('div', { class: 'timeline-area' }, this.canvas);
    // As tall as the lanes need (CSSOM, which the CSP allows, unlike a style attribute), up to
    // the stylesheet's max-height; more lanes scroll inside the canvas.
    this.element.style.height = `${AXIS_HEIGHT + Math.min(Math.max(3, index.laneCount), 200) * LANE_HEIGHT + 12}px`;
    this.rows = new LaneRows(index.laneCount);
    const kind = m.traits.units.thread;
    this.findInput = h('input', {
      type: 'search',
      class: 'lane-find-input',
      placeholder: m.traits.threadQuery,
      'aria-label': `Find ${kind}`,
      'aria-describedby': 'lane-count',
      spellcheck: 'false',
      autocomplete: 'off',
    });
    this.findBar = h('div', { class: 'lane-find', role: 'search' }, h('label', {}, `Find ${kind} `, this.findInput), this.laneCount);
    // Only the lanes in view are listed (a virtual list): a trace of 750,000 goroutines keeps a
    // few dozen nodes here; the count line says which of how many these are.
    this.laneList = h('ul', { class: 'sr-only', 'aria-label': m.traits.units.Threads, 'aria-describedby': 'lane-count' });
    this.viewport = new Viewport(index.recordCount, index.laneCount);
    this.renderer = new TimelineRenderer(this.canvas, index, this.viewport, palette, this.rows);
    this.showLaneCount(index.laneCount);
    this.listen();
    this.listenFind();
    this.resizeObserver.observe(this.element);
  }

  private resizeObserver = new ResizeObserver(() => this.resize());

  /** Stop observing (the view is being replaced by a new model). */
  dispose(): void {
    this.resizeObserver.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  get selected(): number {
    return this.marks.selected;
  }

  setPalette(palette: Palette): void {
    this.renderer.setPalette(palette);
    this.invalidate();
  }

  restore(state: Partial<ViewState> & { selected?: number }): void {
    this.viewport.restore(state);
    if (typeof state.selected === 'number' && state.selected >= 0 && state.selected < this.index.recordCount) {
      this.marks.selected = state.selected;
    }
    this.invalidate();
  }

  viewState(): ViewState & { selected: number } {
    const v = this.viewport;
    return { x0: v.x0, scale: v.scale, scrollY: v.scrollY, selected: this.marks.selected };
  }

  /** The debug session moved (position null: no session). The view follows it. */
  setCursor(position: number | null): void {
    this.marks.cursor = position;
    if (position !== null) {
      const p = Math.max(0, Math.min(position, this.index.stepCount));
      const frontier = this.index.frontier(p);
      this.viewport.reveal(Math.max(0, frontier - 0.5));
      if (p > 0) this.revealLane(this.index.model.recordThread[this.index.model.stepRecord[p - 1]]);
      this.events.changed();
    }
    this.invalidate();
  }

  /** The session's log point hits and origin chain (issue 30); null clears them. */
  setRunMarks(run: RunMarksMsg | null): void {
    this.marks.run = run;
    this.invalidate();
  }

  setDivergence(record: number | null): void {
    this.marks.divergence = record;
    if (record !== null && record < this.index.recordCount) {
      this.viewport.reveal(record);
      this.revealLane(this.index.model.recordThread[record]);
    }
    this.invalidate();
  }

  select(record: number, reveal = true): void {
    if (record < 0 || record >= this.index.recordCount) return;
    this.marks.selected = record;
    if (reveal) {
      this.viewport.reveal(record + 0.5);
      this.revealLane(this.index.model.recordThread[record]);
    }
    const text = describeRecord(this.index, record);
    const summary = this.index.model.summaries?.[record];
    this.announcer.textContent = summary ? `${text}: ${summary}` : text;
    this.status.textContent = this.announcer.textContent;
    this.events.select(record);
    this.events.changed();
    this.invalidate();
  }

  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Scroll lane L into view; a lane the filter hides is shown beside the matches (the debug cursor's goroutine is always on screen). */
  revealLane(lane: number): void {
    const before = this.rows.count;
    const row = this.rows.keep(lane);
    if (this.rows.count !== before) this.viewport.setRowCount(this.rows.count);
    if (row >= 0) this.viewport.revealLane(row);
  }

  private draw(): void {
    const t0 = performance.now();
    this.renderer.draw(this.marks);
    this.updateLaneList();
    // User Timing entries: the benchmark reads them. Cleared now and then so a long session
    // does not keep one entry per frame forever.
    if (++this.framesMeasured % 2000 === 0) performance.clearMeasures('timeline-frame');
    performance.measure('timeline-frame', { start: t0, end: performance.now() });
    if (!this.firstPaintDone) {
      this.firstPaintDone = true;
      performance.mark('timeline-first-paint');
    }
  }

  private resize(): void {
    const rect = this.element.getBoundingClientRect();
    this.viewport.resize(rect.width, rect.height);
    this.renderer.resize(rect.width, rect.height, window.devicePixelRatio || 1);
    this.draw(); // synchronously, so a resize never shows a stretched frame
  }

  fitAll(): void {
    this.viewport.fitAll();
    this.events.changed();
    this.invalidate();
  }

  /** The lane list holds the rows on screen: rebuilt when they change (a scroll, the filter). */
  private updateLaneList(): void {
    const [first, last] = this.renderer.visibleRows();
    const l = this.listed;
    if (l.first === first && l.last === last && l.filter === this.rows.filter && l.count === this.rows.count) return;
    this.listed = { first, last, filter: this.rows.filter, count: this.rows.count };
    const panic = this.index.model.panic;
    const items: HTMLElement[] = [];
    for (let row = first; row < last; row++) {
      const lane = this.rows.laneAt(row);
      const notes = [`${this.index.laneSize(lane)} records`];
      if (panic && this.index.chainThreads.has(lane)) notes.push('in the causal chain');
      if (panic?.thread === lane) notes.push('panicked');
      items.push(h('li', { 'data-lane': lane }, `${this.index.laneLabel(lane)}: ${notes.join(', ')}`));
    }
    this.laneList.replaceChildren(...items);
    this.showLaneCount();
  }

  /** "12 of 750,000 goroutines match 0.1.*; 1–12 in view". */
  private showLaneCount(matched?: number): void {
    const kinds = this.index.model.traits.units.threads;
    const total = this.index.laneCount.toLocaleString('en-US');
    const rows = this.rows.count;
    const [first, last] = this.listed.first >= 0 ? [this.listed.first, this.listed.last] : [0, 0];
    const inView = last > first ? `; ${(first + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} in view` : '';
    if (!this.rows.filtered) this.laneCount.textContent = `${total} ${kinds}${inView}`;
    else {
      const n = matched ?? this.matched;
      this.laneCount.textContent =
        n === 0 ? `no ${kinds.slice(0, -1)} matches ${this.rows.filter} (of ${total})${rows > 0 ? `; ${rows} kept in view` : ''}` : `${n.toLocaleString('en-US')} of ${total} ${kinds} match ${this.rows.filter}${inView}`;
    }
  }

  private matched = 0;

  /** Show only the lanes matching `text` ('' for all), the debug cursor's goroutine kept. Returns the first matching lane, or -1. */
  applyFilter(text: string): number {
    const m = this.index.model;
    const keep: number[] = [];
    const c = this.marks.cursor;
    if (c !== null && c > 0 && c <= this.index.stepCount) keep.push(m.recordThread[m.stepRecord[c - 1]]);
    if (text.trim() === this.rows.filter) return this.firstMatch();
    this.matched = this.rows.setFilter(text, m.threads, keep);
    this.viewport.setRowCount(this.rows.count);
    this.viewport.scrollY = 0;
    this.viewport.clamp();
    this.listed.first = -1;
    this.showLaneCount(this.matched);
    this.events.changed();
    this.invalidate();
    return this.firstMatch();
  }

  /** The first lane the filter matched (not one only kept in view), or -1. */
  private firstMatch(): number {
    if (!this.rows.filtered) return this.rows.count > 0 ? 0 : -1;
    if (this.matched === 0) return -1;
    const m = this.index.model;
    const keep = this.marks.cursor !== null && this.marks.cursor > 0 ? m.recordThread[m.stepRecord[this.marks.cursor - 1]] : -1;
    for (let row = 0; row < this.rows.count; row++) {
      const lane = this.rows.laneAt(row);
      if (lane !== keep || this.matched === this.rows.count) return lane;
    }
    return this.rows.laneAt(0);
  }

  /** Find a goroutine: the filter follows the text; Enter goes to the first match's first record, Escape shows every lane. */
  private listenFind(): void {
    let timer = 0;
    const input = this.findInput;
    input.addEventListener('input', () => {
      if (timer) window.clearTimeout(timer);
      // One filter pass per pause in typing: a pass over 750,000 ids takes tens of ms.
      timer = window.setTimeout(() => {
        timer = 0;
        this.applyFilter(input.value);
      }, 60);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        if (timer) window.clearTimeout(timer);
        timer = 0;
        e.preventDefault();
        const lane = this.applyFilter(input.value);
        if (lane < 0) return;
        const start = this.index.laneStart[lane];
        if (start < this.index.laneStart[lane + 1]) this.select(this.index.laneRecords[start]);
        else this.revealLane(lane);
        this.canvas.focus();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        if (timer) window.clearTimeout(timer);
        timer = 0;
        input.value = '';
        this.applyFilter('');
        const sel = this.marks.selected;
        if (sel >= 0) this.revealLane(this.index.model.recordThread[sel]);
        this.canvas.focus();
      }
    });
  }

  private plotX(clientX: number): number {
    return clientX - this.canvas.getBoundingClientRect().left - GUTTER_WIDTH;
  }

  private recordAtPoint(clientX: number, clientY: number): number {
    const rect = this.canvas.getBoundingClientRect();
    const px = clientX - rect.left - GUTTER_WIDTH;
    const row = this.viewport.laneAt(clientY - rect.top);
    if (row < 0) return -1;
    const lane = this.rows.laneAt(row);
    if (px < 0) return -1;
    const x = this.viewport.recordAt(px);
    const r = this.index.nearestInLane(lane, x);
    if (r < 0) return -1;
    // Only a hit when the record is drawn within a few pixels of the pointer.
    const dx = Math.abs(this.viewport.xOf(r + 0.5) - px) - 0.5 / this.viewport.scale;
    return dx <= 6 ? r : -1;
  }

  private listen(): void {
    const c = this.canvas;
    attachPointer(c, {
      viewport: this.viewport,
      plotX: (e) => this.plotX(e.clientX),
      viewChanged: (settled) => {
        if (settled) this.events.changed();
        this.invalidate();
      },
      hover: (e) => {
        const r = this.recordAtPoint(e.clientX, e.clientY);
        if (r === this.marks.hover) return;
        this.marks.hover = r;
        this.status.textContent = r >= 0 ? describeRecord(this.index, r) + summarySuffix(this.index.model.summaries?.[r]) : '';
        this.invalidate();
      },
      click: (e) => {
        const r = this.recordAtPoint(e.clientX, e.clientY);
        if (r < 0) return;
        this.select(r, false);
        this.events.clicked(r);
      },
    });
    c.addEventListener('pointerleave', () => {
      if (this.marks.hover >= 0) {
        this.marks.hover = -1;
        this.invalidate();
      }
    });
    c.addEventListener('keydown', (e) => this.onKey(e));
  }

  private onKey(e: KeyboardEvent): void {
    const v = this.viewport;
    const idx = this.index;
    const sel = this.marks.selected;
    const start = () => (sel >= 0 ? sel : this.firstVisibleRecord());
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        const dir = e.key === 'ArrowRight' ? 1 : -1;
        if (e.shiftKey) {
          v.panBy(dir * v.plotWidth * 0.2);
          this.events.changed();
        } else if (sel < 0) this.select(start());
        else this.select(idx.stepInLane(sel, dir));
        break;
      }
      case 'ArrowUp':
      case 'ArrowDown': {
        if (sel < 0) {
          this.select(start());
          break;
        }
        const dir = e.key === 'ArrowDown' ? 1 : -1;
        const rows = this.rows;
        const from = rows.rowOf(idx.model.recordThread[sel]);
        // From a lane the filter hides, the first row below (or above) where it would be.
        let row = from >= 0 ? from + dir : this.rowNear(idx.model.recordThread[sel], dir);
        while (row >= 0 && row < rows.count && idx.laneSize(rows.laneAt(row)) === 0) row += dir;
        if (row >= 0 && row < rows.count) this.select(idx.nearestInLane(rows.laneAt(row), sel + 0.5));
        break;
      }
      case '/':
        this.findInput.focus();
        this.findInput.select();
        break;
      case '+':
      case '=':
        this.zoomAround(1 / ZOOM_STEP);
        break;
      case '-':
      case '_':
        this.zoomAround(ZOOM_STEP);
        break;
      case '0':
        this.fitAll();
        break;
      case 'Home':
        this.select(0);
        break;
      case 'End':
        this.select(idx.recordCount - 1);
        break;
      case 'PageUp':
        v.panBy(-v.plotWidth * 0.9);
        this.events.changed();
        break;
      case 'PageDown':
        v.panBy(v.plotWidth * 0.9);
        this.events.changed();
        break;
      case 'Enter':
      case ' ':
        if (sel >= 0) this.events.goto(sel);
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      this.invalidate();
    }
  }

  /** The first row past lane L's place in direction dir (L itself hidden by the filter). */
  private rowNear(lane: number, dir: 1 | -1): number {
    const at = lowerBound(0, this.rows.count, (i) => this.rows.laneAt(i) < lane);
    return dir > 0 ? at : at - 1;
  }

  private zoomAround(factor: number): void {
    const v = this.viewport;
    const sel = this.marks.selected;
    const px = sel >= 0 && v.xOf(sel) >= 0 && v.xOf(sel) <= v.plotWidth ? v.xOf(sel + 0.5) : v.plotWidth / 2;
    v.zoomAt(px, factor);
    this.events.changed();
  }

  /** The first record on screen in the topmost visible lane that has one (keyboard entry point). */
  private firstVisibleRecord(): number {
    const v = this.viewport;
    const firstRow = Math.floor(v.scrollY / LANE_HEIGHT);
    for (let row = firstRow; row < this.rows.count; row++) {
      const lane = this.rows.laneAt(row);
      const i = this.index.laneLowerBound(lane, Math.floor(v.x0));
      if (i < this.index.laneStart[lane + 1]) return this.index.laneRecords[i];
    }
    return 0;
  }
}

function summarySuffix(summary: string | undefined): string {
  return summary ? `: ${summary}` : '';
}
