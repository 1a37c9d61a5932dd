// A step chart of a numeric variable over ops (at source level: over statements in run order),
// one series per thread, with the debug cursor.
// Redrawn only when the cursor moves or the panel resizes; dots only where they do not overlap.
import { h } from '../shared/dom';
import { cssColor } from '../shared/theme-colors';
import type { HistoryData } from './history-data';
import { stepAtPosition } from '../../replay-engine/model/step-words';

const SERIES = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];
const PAD = { left: 56, right: 12, top: 10, bottom: 22 };

export class ValueChart {
  readonly element: HTMLElement;
  private canvas: HTMLCanvasElement;
  private cursor: number | null = null;
  private frame = 0;

  constructor(private data: HistoryData, private values: Float64Array, private onPick: (row: number) => void) {
    this.canvas = h('canvas', { role: 'img', 'aria-label': this.describe(), tabindex: '-1' });
    this.element = h('div', { class: 'value-chart' }, this.canvas);
    new ResizeObserver(() => this.invalidate()).observe(this.element);
    this.canvas.addEventListener('click', (e) => {
      const row = this.rowAt(e.offsetX);
      if (row >= 0) this.onPick(row);
    });
  }

  setCursor(p: number | null): void {
    this.cursor = p;
    this.invalidate();
  }

  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private describe(): string {
    let min = Infinity;
    let max = -Infinity;
    for (const v of this.values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const n = this.data.count;
    const axis = n ? `, over ${this.storeWords(0)} to ${this.storeWords(n - 1)}` : '';
    return `Chart of ${this.data.model.name}: ${n} values from ${min} to ${max}${axis}`;
  }

  /**
   * Row i's place on the x axis in words users know: at source level the n-th store and the op the
   * status bar shows then (`store 2 · op 6`; a statement's seq would read like a line number), at
   * record level the op alone (`op 6`, `start`).
   */
  private storeWords(i: number): string {
    const op = stepAtPosition(this.data.model.position[i], 'op');
    return this.data.model.stores ? `store ${i + 1} · ${op}` : op;
  }

  /** Each row's x: its statement's seq at source level, else its position. */
  private get xs(): Uint32Array {
    return this.data.model.stores?.seq ?? this.data.model.position;
  }

  private range(): { p0: number; p1: number; v0: number; v1: number } {
    const pos = this.xs;
    const n = this.data.count;
    let v0 = Infinity;
    let v1 = -Infinity;
    for (const v of this.values) {
      if (v < v0) v0 = v;
      if (v > v1) v1 = v;
    }
    if (v0 === v1) {
      v0 -= 1;
      v1 += 1;
    }
    const p0 = pos[0];
    const p1 = Math.max(pos[n - 1], p0 + 1, this.cursor ?? 0);
    return { p0, p1, v0, v1 };
  }

  private rowAt(x: number): number {
    const rect = this.canvas.getBoundingClientRect();
    const { p0, p1 } = this.range();
    const w = rect.width - PAD.left - PAD.right;
    const p = p0 + ((x - PAD.left) / w) * (p1 - p0);
    return this.data.model.stores ? this.data.currentRowAtSeq(Math.round(p) + 0.5) : this.data.currentRow(Math.round(p));
  }

  private draw(): void {
    const rect = this.element.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(rect.width * dpr));
    this.canvas.height = Math.max(1, Math.round(rect.height * dpr));
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const W = rect.width;
    const H = rect.height;
    ctx.clearRect(0, 0, W, H);
    const { p0, p1, v0, v1 } = this.range();
    const pw = W - PAD.left - PAD.right;
    const ph = H - PAD.top - PAD.bottom;
    const x = (p: number) => PAD.left + ((p - p0) / (p1 - p0)) * pw;
    const y = (v: number) => PAD.top + (1 - (v - v0) / (v1 - v0)) * ph;
    const fg = cssColor('--vscode-descriptionForeground', '#999');
    const grid = cssColor('--vscode-editorRuler-foreground', 'rgba(128,128,128,0.3)');
    const font = `${cssColor('--vscode-font-size', '12px')} ${cssColor('--vscode-editor-font-family', 'monospace')}`;
    ctx.font = font;
    ctx.fillStyle = fg;
    ctx.strokeStyle = grid;
    ctx.lineWidth = 1;
    ctx.textBaseline = 'middle';
    for (const v of [v0, (v0 + v1) / 2, v1]) {
      ctx.beginPath();
      ctx.moveTo(PAD.left, y(v) + 0.5);
      ctx.lineTo(W - PAD.right, y(v) + 0.5);
      ctx.stroke();
      ctx.fillText(compact(v), 4, y(v));
    }
    ctx.textBaseline = 'alphabetic';
    // The ends in words (storeWords): the first store; the last, or past it when the cursor is
    // later than the last store. Positions at record level as the status bar names the op done there.
    const n = this.data.count;
    const stores = this.data.model.stores;
    ctx.fillText(stores ? this.storeWords(0) : stepAtPosition(p0, 'op'), PAD.left, H - 6);
    const endLabel = !stores ? stepAtPosition(p1, 'op') : p1 > this.xs[n - 1] ? `after store ${n}` : this.storeWords(n - 1);
    ctx.fillText(endLabel, W - PAD.right - ctx.measureText(endLabel).width, H - 6);

    // One step line per thread: a value holds until the op that changes it.
    const model = this.data.model;
    const threads = Array.from(new Set(model.thread.subarray(0, this.data.count)));
    threads.forEach((t, s) => {
      ctx.strokeStyle = cssColor(SERIES[s % SERIES.length], '#3794ff');
      ctx.fillStyle = ctx.strokeStyle;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      let started = false;
      let lastX = -Infinity;
      let lastY = 0;
      for (let i = 0; i < this.data.count; i++) {
        if (model.thread[i] !== t) continue;
        const px = x(this.xs[i]);
        const py = y(this.values[i]);
        if (!started) {
          ctx.moveTo(px, py);
          started = true;
        } else {
          ctx.lineTo(px, lastY); // hold the old value until this op, then step
          ctx.lineTo(px, py);
        }
        if (px - lastX >= 4) ctx.fillRect(px - 2, py - 2, 4, 4);
        lastX = px;
        lastY = py;
      }
      if (started) ctx.lineTo(x(p1), lastY);
      ctx.stroke();
    });
    if (this.cursor !== null) {
      ctx.strokeStyle = cssColor('--vscode-debugIcon-breakpointCurrentStackframeForeground', '#ffcc00');
      ctx.lineWidth = 2;
      const cx = x(Math.min(Math.max(this.cursor, p0), p1));
      ctx.beginPath();
      ctx.moveTo(cx, PAD.top);
      ctx.lineTo(cx, PAD.top + ph);
      ctx.stroke();
    }
  }
}

function compact(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 1000 || Math.abs(v) < 0.01 ? v.toExponential(2) : v.toFixed(2);
}
