// What part of the timeline is on screen: records [x0, x0 + width * scale) horizontally
// (scale = records per CSS pixel, fractional) and rows of lanes from scrollY down. Pure
// arithmetic. A row is a lane unless the timeline's lane filter is on (lane-rows.ts): the lane
// methods below take and give rows.

export const LANE_HEIGHT = 24;
export const AXIS_HEIGHT = 22;
export const GUTTER_WIDTH = 160;
/** The most zoomed-in view: one record is this many pixels wide. */
export const MAX_RECORD_PX = 200;
/** Room after the last record, so the panic marker at the end is not cut by the edge. */
export const END_PAD = 14;

export interface ViewState {
  x0: number;
  scale: number;
  scrollY: number;
}

export class Viewport implements ViewState {
  x0 = 0;
  scale = 1;
  scrollY = 0;
  /** CSS pixels of the canvas. */
  width = 300;
  height = 150;

  constructor(private recordCount: number, private laneCount: number) {}

  /** The number of rows changed (the lane filter): scroll stays within them. */
  setRowCount(rows: number): void {
    this.laneCount = rows;
    this.clamp();
  }

  get rowCount(): number {
    return this.laneCount;
  }

  /** Width of the plot area (right of the lane labels). */
  get plotWidth(): number {
    return Math.max(1, this.width - GUTTER_WIDTH);
  }

  get plotHeight(): number {
    return Math.max(1, this.height - AXIS_HEIGHT);
  }

  get minScale(): number {
    return 1 / MAX_RECORD_PX;
  }

  /** Whole recording visible. */
  get maxScale(): number {
    return Math.max(this.minScale, Math.max(1, this.recordCount) / Math.max(1, this.plotWidth - END_PAD));
  }

  fitAll(): void {
    this.scale = this.maxScale;
    this.x0 = 0;
    this.clamp();
  }

  resize(width: number, height: number): void {
    const wasAll = this.scale >= this.maxScale;
    this.width = width;
    this.height = height;
    if (wasAll) this.scale = this.maxScale;
    this.clamp();
  }

  /** Record coordinate at plot x (CSS px from the plot's left edge). */
  recordAt(px: number): number {
    return this.x0 + px * this.scale;
  }

  /** Plot x (CSS px) of record coordinate r. */
  xOf(r: number): number {
    return (r - this.x0) / this.scale;
  }

  /** Zoom by `factor` (>1 zooms out) keeping the record under plot x `px` in place. */
  zoomAt(px: number, factor: number): void {
    const anchor = this.recordAt(px);
    this.scale = Math.min(this.maxScale, Math.max(this.minScale, this.scale * factor));
    this.x0 = anchor - px * this.scale;
    this.clamp();
  }

  panBy(pixels: number): void {
    this.x0 += pixels * this.scale;
    this.clamp();
  }

  scrollBy(pixels: number): void {
    this.scrollY += pixels;
    this.clamp();
  }

  /** Pan so record coordinate r is visible with a margin; centers it when it is far away. */
  reveal(r: number): void {
    const span = this.plotWidth * this.scale;
    const margin = span * 0.1;
    if (r < this.x0 + margin || r > this.x0 + span - margin) {
      const far = r < this.x0 - span || r > this.x0 + 2 * span;
      this.x0 = far ? r - span / 2 : r < this.x0 + margin ? r - margin : r - span + margin;
      this.clamp();
    }
  }

  revealLane(lane: number): void {
    const top = lane * LANE_HEIGHT;
    if (top < this.scrollY) this.scrollY = top;
    else if (top + LANE_HEIGHT > this.scrollY + this.plotHeight) this.scrollY = top + LANE_HEIGHT - this.plotHeight;
    this.clamp();
  }

  /** Lane under canvas y (CSS px), or -1. */
  laneAt(y: number): number {
    if (y < AXIS_HEIGHT) return -1;
    const lane = Math.floor((y - AXIS_HEIGHT + this.scrollY) / LANE_HEIGHT);
    return lane >= 0 && lane < this.laneCount ? lane : -1;
  }

  laneTop(lane: number): number {
    return AXIS_HEIGHT + lane * LANE_HEIGHT - this.scrollY;
  }

  restore(s: Partial<ViewState>): void {
    if (typeof s.scale === 'number' && Number.isFinite(s.scale)) this.scale = s.scale;
    if (typeof s.x0 === 'number' && Number.isFinite(s.x0)) this.x0 = s.x0;
    if (typeof s.scrollY === 'number' && Number.isFinite(s.scrollY)) this.scrollY = s.scrollY;
    this.clamp();
  }

  clamp(): void {
    this.scale = Math.min(this.maxScale, Math.max(this.minScale, this.scale));
    const span = Math.max(1, this.plotWidth - END_PAD) * this.scale;
    this.x0 = Math.max(0, Math.min(this.x0, Math.max(0, this.recordCount - span)));
    const lanesHeight = this.laneCount * LANE_HEIGHT;
    this.scrollY = Math.max(0, Math.min(this.scrollY, Math.max(0, lanesHeight - this.plotHeight)));
  }
}
