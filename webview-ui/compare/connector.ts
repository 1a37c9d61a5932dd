// The strip between the two timelines: each place where the runs differ (a hunk) is a band from
// its records on A (top edge) to its records on B (bottom edge), so a shifted or inserted run of
// records reads as a slanted or widening band, like a merge tool's connectors. Only hunks whose
// A or B range is on screen are drawn, and at most one per pixel column.
import { hunkAtOrBefore } from './counterpart';
import type { AlignmentMsg } from './protocol';
import { GUTTER_WIDTH, type Viewport } from '../timeline/viewport';

export interface ConnectorColors {
  background: string;
  band: string;
  divergence: string;
  muted: string;
}

export function drawConnector(
  canvas: HTMLCanvasElement,
  al: AlignmentMsg,
  viewA: Viewport,
  viewB: Viewport,
  colors: ConnectorColors,
  /** The hunk where the runs part (drawn in the divergence color), or -1. */
  divergenceHunk: number,
): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const hgt = canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
  if (canvas.height !== Math.round(hgt * dpr)) canvas.height = Math.round(hgt * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, w, hgt);
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER_WIDTH, 0, w - GUTTER_WIDTH, hgt);
  ctx.clip();
  const count = al.hunks.length / 4;
  const spanA = viewA.plotWidth * viewA.scale;
  const spanB = viewB.plotWidth * viewB.scale;
  // Hunks are ascending on both sides: start a little before the first one visible on A or B.
  const first = Math.max(0, Math.min(hunkAtOrBefore(al, 0, viewA.x0), hunkAtOrBefore(al, 2, viewB.x0)));
  let lastColumn = -Infinity;
  for (let h = first; h < count; h++) {
    const a0 = al.hunks[h * 4];
    const a1 = al.hunks[h * 4 + 1];
    const b0 = al.hunks[h * 4 + 2];
    const b1 = al.hunks[h * 4 + 3];
    if (a0 > viewA.x0 + spanA && b0 > viewB.x0 + spanB) break;
    const xa0 = GUTTER_WIDTH + viewA.xOf(a0);
    const xa1 = GUTTER_WIDTH + viewA.xOf(a1);
    const xb0 = GUTTER_WIDTH + viewB.xOf(b0);
    const xb1 = GUTTER_WIDTH + viewB.xOf(b1);
    const column = Math.floor(Math.min(xa0, xb0));
    if (column === lastColumn && h !== divergenceHunk) continue;
    lastColumn = column;
    ctx.fillStyle = h === divergenceHunk ? colors.divergence : colors.band;
    ctx.beginPath();
    ctx.moveTo(xa0, 0);
    ctx.lineTo(Math.max(xa1, xa0 + 1), 0);
    ctx.lineTo(Math.max(xb1, xb0 + 1), hgt);
    ctx.lineTo(xb0, hgt);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
  ctx.fillStyle = colors.muted;
  ctx.font = '11px sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillText('A ↕ B: differences', 8, hgt / 2);
}
