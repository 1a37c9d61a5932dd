// Draws the whole run's answers of the debug session over the lanes (issue 30): each log point hit
// as a small notch at the top of its goroutine's lane, where the statement ran (between the ops
// around it, as the cursor line stands); the origin chain of a value as dots joined by arrows,
// from the earlier link to the later one, lane to lane (a send in a worker to the receive in main).
// Only what is on screen is drawn; a lane the filter hides has no marks.
import type { RunMarksMsg } from '../protocol';
import type { LaneRows } from './lane-rows';
import type { TimelineIndex } from './model-index';
import type { Palette } from './palette';
import { GUTTER_WIDTH, LANE_HEIGHT, type Viewport } from './viewport';

export function drawRunMarks(ctx: CanvasRenderingContext2D, view: Viewport, index: TimelineIndex, rows: LaneRows, run: RunMarksMsg, palette: Palette): void {
  const xOf = (position: number) => GUTTER_WIDTH + view.xOf(index.frontier(position));
  const visible = (x: number) => x >= GUTTER_WIDTH - 8 && x <= view.width + 8;
  ctx.fillStyle = palette.logPoint;
  for (const h of run.hits) {
    const row = rows.rowOf(h.lane);
    if (row < 0) continue;
    const x = xOf(h.position);
    if (!visible(x)) continue;
    const top = view.laneTop(row);
    ctx.beginPath();
    ctx.moveTo(x - 5, top + 1);
    ctx.lineTo(x + 5, top + 1);
    ctx.lineTo(x, top + 8);
    ctx.closePath();
    ctx.fill();
  }
  if (!run.origin) return;
  const points = run.origin.links.map((l) => {
    const row = rows.rowOf(l.lane);
    return row < 0 ? null : { x: xOf(l.position), y: view.laneTop(row) + LANE_HEIGHT / 2 };
  });
  ctx.strokeStyle = palette.origin;
  ctx.fillStyle = palette.origin;
  ctx.lineWidth = 2;
  // Links are newest first: link k+1 (earlier) handed the value to link k.
  for (let k = 0; k + 1 < points.length; k++) {
    const to = points[k];
    const from = points[k + 1];
    if (!to || !from) continue;
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    ctx.lineTo(to.x, to.y);
    ctx.stroke();
    arrowHead(ctx, from, to);
  }
  for (const p of points) {
    if (!p || !visible(p.x)) continue;
    ctx.beginPath();
    ctx.arc(p.x, p.y, 4, 0, Math.PI * 2);
    ctx.fill();
  }
}

function arrowHead(ctx: CanvasRenderingContext2D, from: { x: number; y: number }, to: { x: number; y: number }): void {
  const a = Math.atan2(to.y - from.y, to.x - from.x);
  const back = 5; // stop at the dot's edge
  const tx = to.x - back * Math.cos(a);
  const ty = to.y - back * Math.sin(a);
  ctx.beginPath();
  ctx.moveTo(tx, ty);
  ctx.lineTo(tx - 8 * Math.cos(a - 0.45), ty - 8 * Math.sin(a - 0.45));
  ctx.lineTo(tx - 8 * Math.cos(a + 0.45), ty - 8 * Math.sin(a + 0.45));
  ctx.closePath();
  ctx.fill();
}

/** The line under the canvas that says what the marks are (screen readers, and the canvas has no text for them). */
export function runMarksText(run: RunMarksMsg | null): string {
  if (!run) return '';
  const parts: string[] = [];
  if (run.hits.length) parts.push(run.hitCount > run.hits.length ? `Log point hits: the first ${run.hits.length} of up to ${run.hitCount} marked ▼` : `Log point hits: ${run.hits.length} marked ▼`);
  if (run.origin) parts.push(`${run.origin.title} (${run.origin.links.map((l) => l.label).join(' ← ')}); ${run.origin.end}`);
  return parts.join(' · ');
}
