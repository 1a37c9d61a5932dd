// Mouse, trackpad and wheel on a timeline canvas, for the timeline view and both panes of the
// compare view alike: a drag pans (and scrolls lanes), a press that does not move is a click, a
// wheel zooms at the pointer (ctrl or a pinch: finer), pans sideways or with shift, and scrolls
// the lanes over the lane names. The owner says what a click, a hover and a changed view mean.
import type { Viewport } from './viewport';

export interface PointerOwner {
  readonly viewport: Viewport;
  /** The x of a mouse event within the plot, in CSS px (negative over the lane names). */
  plotX(e: MouseEvent): number;
  /** The view moved; `settled` once a drag ends or after a wheel turn (a place to save state). */
  viewChanged(settled: boolean): void;
  /** The pointer moved over the canvas without dragging. */
  hover(e: PointerEvent): void;
  /** A press and release without moving. */
  click(e: PointerEvent): void;
}

/** A drag starts once the pointer has moved this far (CSS px): less is a click. */
const DRAG_SLOP = 4;

export function attachPointer(canvas: HTMLCanvasElement, owner: PointerOwner): void {
  let drag: { x: number; y: number; moved: boolean; pointer: number } | null = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    drag = { x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag || drag.pointer !== e.pointerId) return owner.hover(e);
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_SLOP) return;
    drag.moved = true;
    canvas.classList.add('dragging');
    owner.viewport.panBy(-dx);
    owner.viewport.scrollBy(-dy);
    drag.x = e.clientX;
    drag.y = e.clientY;
    owner.viewChanged(false);
  });
  const end = (e: PointerEvent) => {
    if (!drag || drag.pointer !== e.pointerId) return;
    const clicked = !drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (clicked && e.type === 'pointerup') owner.click(e);
    else if (!clicked) owner.viewChanged(true);
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('wheel', (e) => onWheel(e, owner), { passive: false });
}

function onWheel(e: WheelEvent, owner: PointerOwner): void {
  e.preventDefault();
  const v = owner.viewport;
  const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? v.plotWidth : 1;
  const dx = e.deltaX * unit;
  const dy = e.deltaY * unit;
  const x = owner.plotX(e);
  const px = Math.max(0, x);
  // Trackpad pinch arrives as ctrl+wheel with small deltas.
  if (e.ctrlKey || e.metaKey) v.zoomAt(px, Math.exp(dy * 0.01));
  else if (e.shiftKey) v.panBy(dy || dx);
  else if (x < 0) v.scrollBy(dy);
  else if (Math.abs(dx) > Math.abs(dy)) v.panBy(dx);
  else v.zoomAt(px, Math.exp(dy * 0.002));
  owner.viewChanged(true);
}
