// Draws one frame of the timeline. Cost per frame depends on the canvas size, never on the
// number of records: zoomed out, each device-pixel column of each visible lane costs one
// binary search within one bucket of the lane's record list (TimelineIndex) and is written into
// an ImageData;
// zoomed in (records >= 8 px wide), only the records on screen are drawn as rectangles.
import type { TimelineIndex } from './model-index';
import { blendOver, packRgba, withAlpha, type Palette } from './palette';
import type { Rgba } from '../shared/theme-colors';
import { AXIS_HEIGHT, GUTTER_WIDTH, LANE_HEIGHT, type Viewport } from './viewport';
import { lowerBound } from '../../replay-engine/model/lower-bound';
import { LaneRows } from './lane-rows';
import type { RunMarksMsg } from '../protocol';
import { drawRunMarks } from './run-marks-layer';

export interface Marks {
  /** Selected record, or -1. */
  selected: number;
  /** Debug session cursor position, or null without a session. */
  cursor: number | null;
  divergence: number | null;
  hover: number;
  /** The session's log point hits and origin chain (issue 30), or null. */
  run?: RunMarksMsg | null;
}

const LEVELS = 32;
const VECTOR_BELOW_SCALE = 1 / 8;

export class TimelineRenderer {
  private ctx: CanvasRenderingContext2D;
  private image: ImageData | null = null;
  private pixels = new Uint32Array(0);
  private colStart = new Float64Array(0);
  private rowBg = new Uint32Array(0);
  private rowMain = new Uint32Array(0);
  private rowIo = new Uint32Array(0);
  private lut!: { step: Uint32Array; chain: Uint32Array; dim: Uint32Array; io: Uint32Array; bg: number; stripe: number; chainBand: number };
  dpr = 1;
  /** Fitted (ellipsized) texts: measuring is the slowest part of drawing labels. */
  private fitted = new Map<string, string>();

  constructor(
    private canvas: HTMLCanvasElement,
    private index: TimelineIndex,
    private view: Viewport,
    private palette: Palette,
    /** Which lane each row shows (the timeline's lane filter); every lane when not given. */
    private rows: LaneRows = new LaneRows(index.laneCount),
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('canvas 2d context unavailable');
    this.ctx = ctx;
    this.setPalette(palette);
  }

  setPalette(palette: Palette): void {
    this.palette = palette;
    this.fitted.clear();
    const ramp = (c: Rgba, scale = 1) => {
      const out = new Uint32Array(LEVELS);
      for (let i = 0; i < LEVELS; i++) {
        const a = (0.3 + (0.7 * i) / (LEVELS - 1)) * scale;
        out[i] = packRgba(blendOver(palette.background, withAlpha(c, Math.round(a * 255))));
      }
      return out;
    };
    this.lut = {
      step: ramp(palette.step),
      chain: ramp(palette.chain),
      dim: ramp(palette.step, 0.45),
      io: ramp(palette.io),
      bg: packRgba(palette.background),
      stripe: packRgba(palette.laneStripe),
      chainBand: packRgba(palette.chainBand),
    };
  }

  /** Match the backing store to the element's CSS size and the device pixel ratio. */
  resize(cssWidth: number, cssHeight: number, dpr: number): void {
    this.dpr = dpr;
    const w = Math.max(1, Math.round(cssWidth * dpr));
    const h = Math.max(1, Math.round(cssHeight * dpr));
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
    this.image = null;
  }

  draw(marks: Marks): void {
    const { ctx, view, dpr } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = rgb(this.palette.background);
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (view.scale > VECTOR_BELOW_SCALE) this.drawDensity();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (view.scale <= VECTOR_BELOW_SCALE) this.drawRecords();
    this.drawMarkers(marks);
    this.drawAxis();
    this.drawGutter(marks);
    this.drawLaneScrollbar();
  }

  /** When the lanes do not fit, a thumb at the right edge shows which ones are on screen. */
  private drawLaneScrollbar(): void {
    const { ctx, view, index, palette } = this;
    const total = this.rows.count * LANE_HEIGHT;
    if (total <= view.plotHeight) return;
    const h = Math.max(16, (view.plotHeight * view.plotHeight) / total);
    const y = AXIS_HEIGHT + (view.scrollY / (total - view.plotHeight)) * (view.plotHeight - h);
    ctx.fillStyle = palette.scrollbar;
    ctx.fillRect(view.width - 7, y, 5, h);
  }

  /** Rows [first, last) on screen: all a frame ever lays out, however many lanes there are. */
  visibleRows(): [number, number] {
    const { view } = this;
    const first = Math.max(0, Math.floor(view.scrollY / LANE_HEIGHT));
    const last = Math.min(this.rows.count, Math.ceil((view.scrollY + view.plotHeight) / LANE_HEIGHT));
    return [first, last];
  }

  /** Zoomed out: per-pixel columns written into an ImageData, one binary search per column and lane. */
  private drawDensity(): void {
    const { view, index, dpr } = this;
    const W = Math.max(1, Math.round(view.plotWidth * dpr));
    const H = Math.max(1, Math.round(view.plotHeight * dpr));
    if (!this.image || this.image.width !== W || this.image.height !== H) {
      this.image = new ImageData(W, H);
      this.pixels = new Uint32Array(this.image.data.buffer);
      this.colStart = new Float64Array(W + 1);
      this.rowBg = new Uint32Array(W);
      this.rowMain = new Uint32Array(W);
      this.rowIo = new Uint32Array(W);
    }
    const px = this.pixels;
    const lut = this.lut;
    px.fill(lut.bg);
    const n = index.recordCount;
    const sd = view.scale / dpr;
    const cols = this.colStart;
    // Far out (a column spans 16+ buckets), column edges snap to bucket edges (at most 1/32 of a
    // column off, invisible in a density shade): the lower bounds are then read from
    // laneBuckets directly, without touching the record lists.
    const bucket = 1 << index.bucketShift;
    if (sd >= 16 * bucket) {
      for (let c = 0; c <= W; c++) cols[c] = Math.round((view.x0 + c * sd) / bucket) * bucket;
    } else {
      for (let c = 0; c <= W; c++) cols[c] = Math.floor(view.x0 + c * sd);
    }
    const gaps = sd < 1 / 3; // records at least 3 device px wide get a 1 px gap between them
    const recs = index.laneRecords;
    const buckets = index.laneBuckets;
    const bucketNonSteps = index.bucketNonSteps;
    const bucketChain = index.bucketChain;
    const shift = index.bucketShift;
    const nonStep = index.nonStepPrefix;
    const chainPrefix = index.chainPrefix;
    const chainEnd = index.chainEnd;
    const hasPanic = chainEnd >= 0;
    const chainCol = hasPanic ? Math.floor((view.xOf(chainEnd) * dpr)) : -1;
    const [firstRow, lastRow] = this.visibleRows();

    for (let row = firstRow; row < lastRow; row++) {
      const lane = this.rows.laneAt(row);
      const top = Math.round((row * LANE_HEIGHT - view.scrollY) * dpr);
      const laneH = Math.round(LANE_HEIGHT * dpr);
      const barTop = top + Math.round(3 * dpr);
      const barBottom = top + laneH - Math.round(3 * dpr);
      const ioTop = barBottom - Math.max(2, Math.round((barBottom - barTop) / 3));
      const laneBg = row % 2 === 1 ? lut.stripe : lut.bg;
      const rowBg = this.rowBg;
      rowBg.fill(laneBg);
      if (hasPanic && index.chainThreads.has(lane) && chainCol > 0) rowBg.fill(lut.chainBand, 0, Math.min(W, chainCol));
      const main = this.rowMain;
      const io = this.rowIo;
      const laneEnd = index.laneStart[lane + 1];
      const laneBase = lane * (index.bucketCount + 1);
      let i = index.laneLowerBound(lane, cols[0]);
      let nsI = nonStep[i];
      let chI = chainPrefix ? chainPrefix[i] : 0;
      for (let c = 0; c < W; c++) {
        const a = cols[c];
        if (a >= n || i >= laneEnd) {
          main.set(rowBg.subarray(c), c);
          io.fill(0, c);
          break;
        }
        const next = cols[c + 1];
        const b = next > a ? next : a + 1;
        // Lower bound of b in this lane: read from the bucket table when b is a bucket edge,
        // else searched within b's bucket (see TimelineIndex.laneBuckets).
        let j: number;
        let nsJ: number;
        let chJ = 0;
        if (b >= n) {
          j = laneEnd;
          nsJ = nonStep[j];
          if (chainPrefix) chJ = chainPrefix[j];
        } else if ((b & (bucket - 1)) === 0) {
          const at = laneBase + (b >>> shift);
          j = buckets[at];
          nsJ = bucketNonSteps[at];
          if (bucketChain) chJ = bucketChain[at];
        } else {
          const at = laneBase + (b >>> shift);
          j = lowerBound(buckets[at], buckets[at + 1], (k) => recs[k] < b);
          nsJ = nonStep[j];
          if (chainPrefix) chJ = chainPrefix[j];
        }
        const count = j - i;
        let m = rowBg[c];
        let o = 0;
        if (count > 0 && !(gaps && c > 0 && cols[c - 1] !== a)) {
          // Intensity on a log scale of the records in the column: one op is faint but visible,
          // a column that is all this lane's is full strength, and busy lanes stay comparable.
          const level = Math.min(LEVELS - 1, Math.round((Math.log2(1 + count) / Math.log2(1 + (b - a))) * (LEVELS - 1)));
          const ios = nsJ - nsI;
          const steps = count - ios;
          if (steps > 0) {
            // A narrowed chain stands out in its own color against the other steps; the full
            // chain (every step before the panic) is shown by the lane band instead, since
            // coloring every step would say nothing. Steps after the panic are dimmed.
            if (chainPrefix) m = chJ - chI > 0 ? lut.chain[level] : lut.dim[level];
            else m = hasPanic && a >= chainEnd ? lut.dim[level] : lut.step[level];
          }
          if (ios > 0) o = lut.io[level];
        }
        main[c] = m;
        io[c] = o;
        if (next > a) {
          // otherwise the next column still starts inside record a
          i = j;
          nsI = nsJ;
          chI = chJ;
        }
      }
      const y0 = Math.max(0, top);
      const y1 = Math.min(H, top + laneH);
      for (let y = y0; y < y1; y++) {
        if (y < barTop || y >= barBottom) px.set(rowBg, y * W);
        else if (y < ioTop) px.set(main, y * W);
        else {
          const row = y * W;
          for (let c = 0; c < W; c++) px[row + c] = io[c] || main[c];
        }
      }
    }
    this.ctx.putImageData(this.image, Math.round(GUTTER_WIDTH * dpr), Math.round(AXIS_HEIGHT * dpr));
  }

  /** Zoomed in: each visible record as a rectangle colored by kind, with its name when it fits. */
  private drawRecords(): void {
    const { ctx, view, index, palette } = this;
    const model = index.model;
    const recordW = 1 / view.scale;
    const span = view.plotWidth * view.scale;
    const [firstRow, lastRow] = this.visibleRows();
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER_WIDTH, AXIS_HEIGHT, view.plotWidth, view.plotHeight);
    ctx.clip();
    ctx.font = palette.font;
    ctx.textBaseline = 'middle';
    const hasPanic = index.chainEnd >= 0;
    for (let row = firstRow; row < lastRow; row++) {
      const lane = this.rows.laneAt(row);
      const top = view.laneTop(row);
      if (row % 2 === 1) {
        ctx.fillStyle = rgb(palette.laneStripe);
        ctx.fillRect(GUTTER_WIDTH, top, view.plotWidth, LANE_HEIGHT);
      }
      if (hasPanic && index.chainThreads.has(lane)) {
        const end = Math.min(view.plotWidth, view.xOf(index.chainEnd));
        if (end > 0) {
          ctx.fillStyle = rgb(palette.chainBand);
          ctx.fillRect(GUTTER_WIDTH, top, end, LANE_HEIGHT);
        }
      }
      const laneEnd = index.laneStart[lane + 1];
      for (let i = index.laneLowerBound(lane, Math.floor(view.x0)); i < laneEnd; i++) {
        const r = index.laneRecords[i];
        if (r > view.x0 + span) break;
        const x = GUTTER_WIDTH + view.xOf(r) + 1;
        const w = Math.max(1, recordW - 2);
        const step = index.isStepAt(i);
        const y = step ? top + 3 : top + LANE_HEIGHT - 9;
        const h = step ? LANE_HEIGHT - 6 : 6;
        const chain = index.inChain(r, i);
        ctx.globalAlpha = hasPanic && r >= index.chainEnd ? 0.45 : 1;
        const fill = step ? palette.kinds[model.recordKind[r]] ?? palette.step : palette.io;
        ctx.fillStyle = rgb(fill);
        ctx.fillRect(x, y, w, h);
        if (chain) {
          ctx.strokeStyle = rgb(palette.chain);
          ctx.lineWidth = 2;
          ctx.strokeRect(x + 1, y + 1, w - 2, h - 2);
        }
        if (step && w >= 40) {
          // At source level the statement that did it (`recv · bank.mfl:8`; `recv :8` where the file
          // name, the same for every op, does not fit; then `recv`), else the record's summary.
          const st = index.statementOf(r);
          const full = st ? `${st.op} · ${st.file}:${st.line}` : '';
          let text = st ? this.fit(full, w - 8) : '';
          const short = st ? `${st.op} :${st.line}` : '';
          if (st && text !== full) text = this.fit(short, w - 8);
          if (st && text !== full && text !== short) text = this.fit(st.op, w - 8);
          if (!st) text = this.fit(model.summaries?.[r] ?? model.kinds[model.recordKind[r]] ?? '', w - 8);
          ctx.fillStyle = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 150 ? '#000' : '#fff';
          ctx.fillText(text, x + 4, y + h / 2);
        }
      }
      ctx.globalAlpha = 1;
    }
    ctx.restore();
  }

  private drawMarkers(marks: Marks): void {
    const { ctx, view, index, palette } = this;
    const model = index.model;
    const plotBottom = AXIS_HEIGHT + view.plotHeight;
    const recordW = Math.max(3, 1 / view.scale);
    const xAt = (r: number) => GUTTER_WIDTH + view.xOf(r);
    const visibleX = (x: number) => x >= GUTTER_WIDTH - 2 && x <= view.width + 2;
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER_WIDTH, 0, view.plotWidth, view.height);
    ctx.clip();
    const box = (r: number, color: string, width: number) => {
      const row = this.rows.rowOf(model.recordThread[r]);
      if (row < 0) return; // its lane is filtered out
      const top = view.laneTop(row);
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.strokeRect(xAt(r) - 1, top + 1, recordW + 1, LANE_HEIGHT - 2);
    };
    if (model.panic) {
      const x = xAt(index.frontier(model.panic.position));
      if (visibleX(x)) {
        ctx.strokeStyle = palette.panic;
        ctx.lineWidth = 2;
        ctx.setLineDash([4, 3]);
        line(ctx, x, AXIS_HEIGHT, x, plotBottom);
        ctx.setLineDash([]);
        const row = this.rows.rowOf(model.panic.thread);
        if (row >= 0) {
          const cy = view.laneTop(row) + LANE_HEIGHT / 2;
          ctx.fillStyle = palette.panic;
          ctx.beginPath();
          ctx.moveTo(x, cy - 7);
          ctx.lineTo(x + 7, cy);
          ctx.lineTo(x, cy + 7);
          ctx.lineTo(x - 7, cy);
          ctx.closePath();
          ctx.fill();
        }
      }
    }
    if (marks.run) drawRunMarks(ctx, view, index, this.rows, marks.run, palette);
    if (marks.divergence !== null && marks.divergence < index.recordCount) {
      const x = xAt(marks.divergence);
      if (visibleX(x)) {
        ctx.strokeStyle = palette.divergence;
        ctx.lineWidth = 2;
        ctx.setLineDash([2, 2]);
        line(ctx, x, AXIS_HEIGHT, x, plotBottom);
        ctx.setLineDash([]);
        box(marks.divergence, palette.divergence, 2);
      }
    }
    if (marks.cursor !== null) {
      const p = marks.cursor;
      const x = xAt(index.frontier(p));
      if (visibleX(x)) {
        ctx.strokeStyle = palette.cursor;
        ctx.lineWidth = 2;
        line(ctx, x, AXIS_HEIGHT, x, plotBottom);
      }
      if (p > 0 && p <= index.stepCount) box(model.stepRecord[p - 1], palette.cursor, 2);
    }
    if (marks.hover >= 0 && marks.hover !== marks.selected) box(marks.hover, palette.muted, 1);
    if (marks.selected >= 0) {
      // A faint line across all lanes finds a selected op that is one pixel wide.
      const x = xAt(marks.selected + 0.5);
      ctx.globalAlpha = 0.5;
      ctx.strokeStyle = palette.selection;
      ctx.lineWidth = 1;
      line(ctx, Math.round(x) + 0.5, AXIS_HEIGHT, Math.round(x) + 0.5, plotBottom);
      ctx.globalAlpha = 1;
      box(marks.selected, palette.selection, 2);
    }
    ctx.restore();
  }

  /** Op numbers along the top: ticks at round op counts, placed at their step's record. */
  private drawAxis(): void {
    const { ctx, view, index, palette } = this;
    ctx.fillStyle = rgb(palette.background);
    ctx.fillRect(GUTTER_WIDTH, 0, view.plotWidth, AXIS_HEIGHT);
    ctx.strokeStyle = palette.gridLine;
    ctx.lineWidth = 1;
    line(ctx, GUTTER_WIDTH, AXIS_HEIGHT - 0.5, view.width, AXIS_HEIGHT - 0.5);
    const steps = index.stepCount;
    if (steps === 0) return;
    const first = index.stepsBefore(Math.floor(view.x0));
    const last = Math.min(steps - 1, index.stepsBefore(Math.ceil(view.x0 + view.plotWidth * view.scale)));
    const opsPerPx = Math.max(1e-9, (last - first + 1) / view.plotWidth);
    const every = niceStep(opsPerPx * 110);
    ctx.font = palette.font;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = palette.muted;
    for (let k = Math.ceil(first / every) * every; k <= last; k += every) {
      const x = GUTTER_WIDTH + view.xOf(index.model.stepRecord[k]);
      if (x < GUTTER_WIDTH) continue;
      line(ctx, x + 0.5, AXIS_HEIGHT - 6, x + 0.5, AXIS_HEIGHT);
      ctx.fillText(`op ${k}`, x + 3, AXIS_HEIGHT / 2 - 1);
    }
  }

  private drawGutter(marks: Marks): void {
    const { ctx, view, index, palette } = this;
    const model = index.model;
    ctx.fillStyle = rgb(palette.background);
    ctx.fillRect(0, 0, GUTTER_WIDTH, view.height);
    ctx.font = palette.font;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = palette.muted;
    ctx.fillText(index.model.traits.units.thread, 8, AXIS_HEIGHT / 2);
    const [firstRow, lastRow] = this.visibleRows();
    const cursorThread = marks.cursor !== null && marks.cursor > 0 ? model.recordThread[model.stepRecord[marks.cursor - 1]] : -1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_HEIGHT, GUTTER_WIDTH, view.plotHeight);
    ctx.clip();
    for (let row = firstRow; row < lastRow; row++) {
      const lane = this.rows.laneAt(row);
      const top = view.laneTop(row);
      if (row % 2 === 1) {
        ctx.fillStyle = rgb(palette.laneStripe);
        ctx.fillRect(0, top, GUTTER_WIDTH, LANE_HEIGHT);
      }
      if (index.chainThreads.has(lane)) {
        ctx.fillStyle = rgb(palette.chain);
        ctx.fillRect(0, top + 3, 3, LANE_HEIGHT - 6);
      }
      const panicLane = model.panic?.thread === lane;
      ctx.fillStyle = panicLane ? palette.panic : palette.foreground;
      const prefix = lane === cursorThread ? '▶ ' : '';
      ctx.fillText(this.fit(prefix + index.laneLabel(lane), GUTTER_WIDTH - 16), 10, top + LANE_HEIGHT / 2);
    }
    ctx.restore();
    ctx.strokeStyle = palette.gridLine;
    line(ctx, GUTTER_WIDTH - 0.5, 0, GUTTER_WIDTH - 0.5, view.height);
  }

  private fit(text: string, width: number): string {
    const key = `${Math.round(width)}|${text}`;
    let out = this.fitted.get(key);
    if (out === undefined) {
      if (this.fitted.size > 4000) this.fitted.clear();
      out = fit(this.ctx, text, width);
      this.fitted.set(key, out);
    }
    return out;
  }
}

function line(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}

function rgb([r, g, b]: Rgba): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/** 1, 2, 5 × 10^k, at least `raw` and at least 1. */
function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** Text cut with an ellipsis to fit `width` px. */
function fit(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (width <= 0) return '';
  if (ctx.measureText(text).width <= width) return text;
  // The longest prefix that fits with the ellipsis: the first length that does not, less one.
  const keep = lowerBound(1, text.length + 1, (n) => ctx.measureText(text.slice(0, n) + '…').width <= width) - 1;
  return keep === 0 ? '' : text.slice(0, keep) + '…';
}
