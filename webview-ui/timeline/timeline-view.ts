// The interactive canvas: owns the viewport, the selection, the debug cursor and the marks,
// turns mouse, wheel, trackpad and keyboard input into pans, zooms and selections, and redraws
// at most once per animation frame.
import { h } from '../shared/dom';
import type { TimelineIndex } from './model-index';
import type { Palette } from './palette';
import { TimelineRenderer, type Marks } from './renderer';
import { AXIS_HEIGHT, GUTTER_WIDTH, LANE_HEIGHT, Viewport, type ViewState } from './viewport';
import { describeRecord } from './details';
import { attachPointer } from './pointer-controller';

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
  readonly viewport: Viewport;
  private renderer: TimelineRenderer;
  private marks: Marks = { selected: -1, cursor: null, divergence: null, hover: -1 };
  private frame = 0;
  private firstPaintDone = false;
  private framesMeasured = 0;

  constructor(private index: TimelineIndex, palette: Palette, private events: TimelineViewEvents) {
    const m = index.model;
    this.canvas = h('canvas', {
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'timeline',
      'aria-label': `Timeline: ${index.recordCount} records, ${index.stepCount} ${m.format === 'tcap' ? 'effects' : 'schedule ops'}, ${index.laneCount} ${m.format === 'tcap' ? 'tasks' : 'goroutines'}. Arrow keys move the selection, plus and minus zoom, Enter goes to the selected record.`,
    });
    this.element = h('div', { class: 'timeline-area' }, this.canvas);
    // As tall as the lanes need (CSSOM, which the CSP allows, unlike a style attribute).
    this.element.style.height = `${AXIS_HEIGHT + Math.max(3, index.laneCount) * LANE_HEIGHT + 12}px`;
    this.laneList = this.buildLaneList();
    this.viewport = new Viewport(index.recordCount, index.laneCount);
    this.renderer = new TimelineRenderer(this.canvas, index, this.viewport, palette);
    this.listen();
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
      if (p > 0) this.viewport.revealLane(this.index.model.recordThread[this.index.model.stepRecord[p - 1]]);
      this.events.changed();
    }
    this.invalidate();
  }

  setDivergence(record: number | null): void {
    this.marks.divergence = record;
    if (record !== null && record < this.index.recordCount) {
      this.viewport.reveal(record);
      this.viewport.revealLane(this.index.model.recordThread[record]);
    }
    this.invalidate();
  }

  select(record: number, reveal = true): void {
    if (record < 0 || record >= this.index.recordCount) return;
    this.marks.selected = record;
    if (reveal) {
      this.viewport.reveal(record + 0.5);
      this.viewport.revealLane(this.index.model.recordThread[record]);
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

  private draw(): void {
    const t0 = performance.now();
    this.renderer.draw(this.marks);
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

  private buildLaneList(): HTMLElement {
    const list = h('ul', { class: 'sr-only', 'aria-label': this.index.model.format === 'tcap' ? 'Tasks' : 'Goroutines' });
    const panic = this.index.model.panic;
    for (let lane = 0; lane < this.index.laneCount; lane++) {
      const notes = [`${this.index.laneSize(lane)} records`];
      if (panic && this.index.chainThreads.has(lane)) notes.push('in the causal chain');
      if (panic?.thread === lane) notes.push('panicked');
      list.appendChild(h('li', { 'data-lane': lane }, `${this.index.laneLabel(lane)}: ${notes.join(', ')}`));
    }
    return list;
  }

  private plotX(clientX: number): number {
    return clientX - this.canvas.getBoundingClientRect().left - GUTTER_WIDTH;
  }

  private recordAtPoint(clientX: number, clientY: number): number {
    const rect = this.canvas.getBoundingClientRect();
    const px = clientX - rect.left - GUTTER_WIDTH;
    const lane = this.viewport.laneAt(clientY - rect.top);
    if (lane < 0) return -1;
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
        let lane = idx.model.recordThread[sel] + dir;
        while (lane >= 0 && lane < idx.laneCount && idx.laneSize(lane) === 0) lane += dir;
        if (lane >= 0 && lane < idx.laneCount) this.select(idx.nearestInLane(lane, sel + 0.5));
        break;
      }
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
    const firstLane = Math.floor(v.scrollY / LANE_HEIGHT);
    for (let lane = firstLane; lane < this.index.laneCount; lane++) {
      const i = this.index.laneLowerBound(lane, Math.floor(v.x0));
      if (i < this.index.laneStart[lane + 1]) return this.index.laneRecords[i];
    }
    return 0;
  }
}

function summarySuffix(summary: string | undefined): string {
  return summary ? `: ${summary}` : '';
}
