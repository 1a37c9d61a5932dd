// The compare view: run A above run B, each drawn by the timeline's own renderer, kept aligned
// (B's visible range follows A's through the record alignment, and the other way round), with
// the places where they differ drawn as bands between them. The divergence is marked on both
// and selected; clicking a record selects its counterpart on the other side.
import '../timeline/elements';
import base from '../shared/base.css';
import { custom, h } from '../shared/dom';
import { adoptStyles } from '../shared/styles';
import { cssColor, onThemeChange } from '../shared/theme-colors';
import { loadState, onHostMessage, postToHost, saveState } from '../shared/vscode-api';
import type { TimelineModel } from '../protocol';
import { TimelineIndex } from '../timeline/model-index';
import { resolvePalette } from '../timeline/palette';
import { TimelineRenderer } from '../timeline/renderer';
import { AXIS_HEIGHT, GUTTER_WIDTH, LANE_HEIGHT, Viewport } from '../timeline/viewport';
import { drawConnector } from './connector';
import { differenceList } from './difference-list';
import { withLanesOf } from './lane-order';
import { counterpartOf, hunkAtOrBefore, mapCoordinate } from './counterpart';
import css from './compare.css';
import { COMPARE_PROTOCOL_VERSION, unpackCompare, type CompareModel, type CompareSide, type CompareToHost, type HostToCompare } from './protocol';
import { attachPointer } from '../timeline/pointer-controller';

const CONNECTOR_HEIGHT = 36;

/** What survives the panel being hidden and shown again (VS Code reloads the page). */
interface SavedCompare {
  /** Which pair of recordings this was (file names and sizes). */
  key: string;
  selected: Record<CompareSide, number>;
  x0: number;
  scale: number;
  scrollY: Record<CompareSide, number>;
}

interface Pane {
  side: CompareSide;
  index: TimelineIndex;
  view: Viewport;
  renderer: TimelineRenderer;
  canvas: HTMLCanvasElement;
  section: HTMLElement;
  selected: number;
  divergence: number | null;
  hover: number;
}

class CompareView {
  private readonly panes: Record<CompareSide, Pane>;
  private readonly connector: HTMLCanvasElement;
  private readonly status: HTMLElement;
  private frame = 0;
  private disposed = false;
  private readonly onResize = () => this.layout();
  private readonly resizeObserver = new ResizeObserver(this.onResize);

  constructor(
    private readonly root: HTMLElement,
    private readonly model: CompareModel,
  ) {
    root.replaceChildren();
    const header = h(
      'header',
      { class: 'compare-header' },
      h('div', { class: 'headline', role: 'status' }, model.headline),
      h('ul', { class: 'details' }, ...model.details.map((d) => h('li', {}, d))),
    );
    const actions = h('div', { class: 'actions' });
    for (const side of ['a', 'b'] as const) {
      const button = custom('vscode-button', { id: `debug-${side}`, secondary: side === 'b' }, `Debug ${side.toUpperCase()} from divergence`);
      button.addEventListener('click', () => this.debugFrom(side));
      if (!model.divergence) button.setAttribute('disabled', '');
      actions.append(button);
    }
    header.append(actions);
    this.connector = h('canvas', { class: 'connector', 'aria-hidden': 'true' });
    this.status = h('div', { class: 'selection', 'aria-live': 'polite' });
    const paneA = this.makePane('a', model.a);
    const paneB = this.makePane('b', withLanesOf(model.a, model.b));
    this.panes = { a: paneA, b: paneB };
    const differences = differenceList(model.alignment, { a: paneA.index, b: paneB.index }, (side, r) => this.select(side, r, true));
    root.append(header, paneA.section, this.connector, paneB.section, this.status, differences);

    this.resizeObserver.observe(root);
    window.addEventListener('resize', this.onResize);
    onThemeChange(() => {
      if (this.disposed) return;
      for (const p of [paneA, paneB]) p.renderer.setPalette(resolvePalette(p.index.model.kinds));
      this.redraw();
    });
    this.layout();
    this.showDivergence();
  }

  private makePane(side: CompareSide, tm: TimelineModel): Pane {
    const model = this.model;
    const index = new TimelineIndex(tm);
    const view = new Viewport(tm.recordCount, tm.threads.length);
    const canvas = h('canvas', {
      class: 'timeline',
      tabindex: 0,
      role: 'img',
      'aria-label': `Run ${side.toUpperCase()}: ${tm.fileName}, ${tm.recordCount} records on ${tm.threads.length} ${tm.traits.units.threads}. Arrow keys move the selection, D goes to the divergence, N and P to the next and previous difference, plus and minus zoom, Enter debugs from the selection.`,
    });
    const section = h(
      'section',
      { class: `pane pane-${side}`, 'data-side': side },
      h('div', { class: 'pane-title' }, h('span', { class: 'side' }, side.toUpperCase()), ` ${tm.fileName}`),
      canvas,
      // The lanes as text, top to bottom, for screen readers (and tests).
      h(
        'ul',
        { class: 'lanes sr-only', 'aria-label': `${tm.traits.units.Threads} of run ${side.toUpperCase()}` },
        ...tm.threads.map((t, lane) => h('li', { 'data-lane': lane }, `${t.id}${t.label ? ` ${t.label}` : ''}: ${index.laneSize(lane)} records`)),
      ),
    );
    const renderer = new TimelineRenderer(canvas, index, view, resolvePalette(tm.kinds));
    const divergence = model.divergence ? model.divergence[side] : null;
    const pane: Pane = { side, index, view, renderer, canvas, section, selected: -1, divergence, hover: -1 };

    // As on the timeline (one controller for both): the other run follows every move.
    attachPointer(canvas, {
      viewport: view,
      plotX: (e) => e.offsetX - GUTTER_WIDTH,
      viewChanged: () => this.follow(side),
      hover: (e) => {
        const r = this.recordAt(pane, e.offsetX, e.offsetY);
        if (r === pane.hover) return;
        pane.hover = r;
        this.redraw();
      },
      click: (e) => {
        const r = this.recordAt(pane, e.offsetX, e.offsetY);
        if (r >= 0) this.select(side, r, true);
      },
    });
    canvas.addEventListener('keydown', (e) => this.key(pane, e));
    return pane;
  }

  /** The record under canvas point (x, y) in CSS px, or -1. */
  private recordAt(pane: Pane, x: number, y: number): number {
    if (x < GUTTER_WIDTH) return -1;
    const lane = pane.view.laneAt(y);
    if (lane < 0) return -1;
    const rx = pane.view.recordAt(x - GUTTER_WIDTH);
    const r = pane.index.nearestInLane(lane, rx);
    if (r < 0) return -1;
    // Only a hit when it is within a few pixels of the record.
    const distance = Math.abs(pane.view.xOf(r + 0.5) - pane.view.xOf(rx));
    return distance <= Math.max(6, 0.5 / pane.view.scale) ? r : -1;
  }

  private other(side: CompareSide): CompareSide {
    return side === 'a' ? 'b' : 'a';
  }

  select(side: CompareSide, r: number, fromUser: boolean): void {
    const pane = this.panes[side];
    const other = this.panes[this.other(side)];
    if (r < 0 || r >= pane.index.recordCount) return;
    const c = counterpartOf(this.model.alignment, this.model.a.recordCount, this.model.b.recordCount, side, r);
    pane.selected = r;
    other.selected = c.record;
    this.reveal(pane, r);
    if (c.record >= 0) this.reveal(other, c.record);
    this.describeSelection(side, r, c.record, c.exact);
    this.persist();
    if (fromUser) {
      const msg: CompareToHost = { type: 'selected', side, record: r, counterpart: c.record, exact: c.exact };
      postToHost(msg);
    }
    this.redraw();
  }

  private reveal(pane: Pane, r: number): void {
    pane.view.reveal(r + 0.5);
    pane.view.revealLane(pane.index.model.recordThread[r]);
  }

  private describeSelection(side: CompareSide, r: number, counterpart: number, exact: boolean): void {
    const text = (s: CompareSide, rec: number) => {
      if (rec < 0) return `${s.toUpperCase()}: (no records)`;
      const p = this.panes[s];
      const summary = p.index.model.summaries?.[rec];
      const thread = p.index.laneLabel(p.index.model.recordThread[rec]);
      const op = p.index.stepOf(rec);
      const where = op >= 0 ? `${p.index.model.traits.units.step} ${op}` : `record ${rec}`;
      return `${s.toUpperCase()}: ${where}, ${thread}${summary ? `: ${summary}` : ''}`;
    };
    const a = side === 'a' ? r : counterpart;
    const b = side === 'b' ? r : counterpart;
    this.status.textContent = `${text('a', a)}  ↔  ${text('b', b)}${exact ? '' : `  (only in ${side.toUpperCase()})`}`;
    for (const p of [this.panes.a, this.panes.b]) p.section.dataset.selected = String(p.selected);
  }

  private get stateKey(): string {
    const { a, b } = this.model;
    return `${a.fileName}:${a.recordCount}|${b.fileName}:${b.recordCount}`;
  }

  private persist(): void {
    const { a, b } = this.panes;
    saveState<SavedCompare>({
      key: this.stateKey,
      selected: { a: a.selected, b: b.selected },
      x0: a.view.x0,
      scale: a.view.scale,
      scrollY: { a: a.view.scrollY, b: b.view.scrollY },
    });
  }

  private showDivergence(): void {
    const d = this.model.divergence;
    for (const p of [this.panes.a, this.panes.b]) p.section.dataset.divergence = p.divergence === null ? '' : String(p.divergence);
    const big = Math.max(this.model.a.recordCount, this.model.b.recordCount) > 2000;
    for (const p of [this.panes.a, this.panes.b]) {
      p.view.fitAll();
      if (big) p.view.scale = Math.max(p.view.minScale, 400 / p.view.plotWidth);
      p.view.clamp();
    }
    const saved = loadState<SavedCompare>();
    if (saved && saved.key === this.stateKey && saved.selected && saved.scrollY) {
      // The same pair shown again: where the user left it.
      const { a, b } = this.panes;
      a.selected = Number(saved.selected.a);
      b.selected = Number(saved.selected.b);
      a.view.restore({ x0: saved.x0, scale: saved.scale, scrollY: saved.scrollY.a });
      b.view.restore({ scrollY: saved.scrollY.b });
      this.follow('a');
      if (a.selected >= 0 || b.selected >= 0) this.describeSelection('a', a.selected, b.selected, true);
      this.redraw();
      return;
    }
    if (!d) {
      this.redraw();
      return;
    }
    // Both sides' divergence records (they are not counterparts: that is where the runs part).
    if (d.a !== null) this.select('a', d.a, false);
    else if (d.b !== null) this.select('b', d.b, false);
    if (d.a !== null && d.b !== null) {
      this.panes.b.selected = d.b;
      this.reveal(this.panes.b, d.b);
      this.describeSelection('a', d.a, d.b, true);
    }
    this.redraw();
  }

  private debugFrom(side: CompareSide): void {
    const d = this.model.divergence;
    const record = d?.[side] ?? this.panes[side].selected;
    if (record === null || record < 0) return;
    const msg: CompareToHost = { type: 'debug', side, record };
    postToHost(msg);
  }

  private key(pane: Pane, e: KeyboardEvent): void {
    const n = pane.index.recordCount;
    const al = this.model.alignment;
    const from = pane.side === 'a' ? 0 : 2;
    let target = -1;
    if (e.key === 'ArrowRight') target = Math.min(n - 1, pane.selected + 1);
    else if (e.key === 'ArrowLeft') target = Math.max(0, pane.selected - 1);
    else if (e.key === 'ArrowDown' && pane.selected >= 0) target = pane.index.stepInLane(pane.selected, 1);
    else if (e.key === 'ArrowUp' && pane.selected >= 0) target = pane.index.stepInLane(pane.selected, -1);
    else if (e.key === 'd' || e.key === 'D') target = pane.divergence ?? -1;
    else if (e.key === '+' || e.key === '=' || e.key === '-') {
      pane.view.zoomAt(pane.view.plotWidth / 2, e.key === '-' ? 1.5 : 1 / 1.5);
      this.follow(pane.side);
      e.preventDefault();
      return;
    }
    else if (e.key === 'n' || e.key === 'p') {
      const hcur = hunkAtOrBefore(al, from, Math.max(0, pane.selected));
      const next = e.key === 'n' ? hcur + 1 : Math.max(0, al.hunks[hcur * 4 + from] === pane.selected ? hcur - 1 : hcur);
      if (next >= 0 && next < al.hunks.length / 4) target = Math.min(n - 1, al.hunks[next * 4 + from]);
    } else if (e.key === 'Enter' && pane.selected >= 0) {
      postToHost<CompareToHost>({ type: 'debug', side: pane.side, record: pane.selected });
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    if (target >= 0) this.select(pane.side, target, true);
  }

  /** After `side`'s view moved: same zoom on the other side, its left edge mapped through the alignment. */
  private follow(side: CompareSide): void {
    const src = this.panes[side].view;
    const dst = this.panes[this.other(side)].view;
    dst.scale = src.scale;
    dst.x0 = mapCoordinate(this.model.alignment, this.model.a.recordCount, this.model.b.recordCount, side, src.x0);
    dst.clamp();
    this.persist();
    this.redraw();
  }

  /** Before a new model replaces this view (the files changed, or the page was shown again). */
  dispose(): void {
    this.disposed = true;
    this.resizeObserver.disconnect();
    window.removeEventListener('resize', this.onResize);
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  layout(): void {
    if (this.disposed) return;
    const width = Math.max(200, this.root.clientWidth);
    const free = Math.max(160, window.innerHeight - this.root.querySelector('header')!.getBoundingClientRect().height - CONNECTOR_HEIGHT - 80);
    const dpr = window.devicePixelRatio || 1;
    for (const p of [this.panes.a, this.panes.b]) {
      const wanted = AXIS_HEIGHT + p.index.laneCount * LANE_HEIGHT + 2;
      const height = Math.max(AXIS_HEIGHT + LANE_HEIGHT * 2, Math.min(wanted, Math.floor(free / 2)));
      p.canvas.style.height = `${height}px`;
      p.canvas.style.width = `${width}px`;
      p.view.resize(width, height);
      p.renderer.resize(width, height, dpr);
    }
    this.connector.style.width = `${width}px`;
    this.connector.style.height = `${CONNECTOR_HEIGHT}px`;
    this.redraw();
  }

  redraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      for (const p of [this.panes.a, this.panes.b]) {
        p.renderer.draw({ selected: p.selected, cursor: null, divergence: p.divergence, hover: p.hover });
        // For tests and assistive tools: where records are drawn.
        p.canvas.dataset.x0 = String(p.view.x0);
        p.canvas.dataset.scale = String(p.view.scale);
        p.canvas.dataset.scrollY = String(p.view.scrollY);
      }
      const d = this.model.divergence;
      const divergenceHunk = d && d.a !== null ? hunkAtOrBefore(this.model.alignment, 0, d.a) : d && d.b !== null ? hunkAtOrBefore(this.model.alignment, 2, d.b) : -1;
      drawConnector(
        this.connector,
        this.model.alignment,
        this.panes.a.view,
        this.panes.b.view,
        {
          background: cssColor('--vscode-editor-background', '#1e1e1e'),
          band: cssColor('--vscode-diffEditor-removedTextBackground', 'rgba(255,0,0,0.2)'),
          divergence: cssColor('--vscode-editorWarning-foreground', '#cca700'),
          muted: cssColor('--vscode-descriptionForeground', '#999999'),
        },
        divergenceHunk,
      );
    });
  }
}

function main(): void {
  adoptStyles(base, css);
  const root = document.getElementById('root') ?? document.body.appendChild(h('div', { id: 'root' }));
  let view: CompareView | null = null;
  onHostMessage<HostToCompare>((msg) => {
    if (msg.type === 'compare') {
      if (msg.version !== COMPARE_PROTOCOL_VERSION) {
        root.replaceChildren(h('div', { class: 'error' }, `This view speaks compare protocol ${COMPARE_PROTOCOL_VERSION}, the extension sent ${msg.version}: reload the window.`));
        return;
      }
      view?.dispose();
      view = new CompareView(root, unpackCompare(msg.data));
    } else if (msg.type === 'error') {
      view?.dispose();
      view = null;
      root.replaceChildren(h('div', { class: 'error', role: 'alert' }, msg.message));
    }
  });
  postToHost<CompareToHost>({ type: 'ready', version: COMPARE_PROTOCOL_VERSION });
}

main();
