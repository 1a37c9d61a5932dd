// Reading the timeline back from the page: canvas pixels at CSS coordinates, the saved view
// state, and where a record is drawn (from the same geometry constants the view uses).
import type { Page } from 'playwright-core';
import { AXIS_HEIGHT, END_PAD, GUTTER_WIDTH, LANE_HEIGHT, MAX_RECORD_PX } from '../../../webview-ui/timeline/viewport';

export type Pixel = [number, number, number];

/** The canvas pixel at CSS point (x, y) relative to the canvas. */
export async function pixelAt(page: Page, x: number, y: number): Promise<Pixel> {
  return page.evaluate(
    ([px, py]) => {
      const c = document.querySelector('canvas') as HTMLCanvasElement;
      const scale = c.width / c.getBoundingClientRect().width;
      const d = c.getContext('2d')!.getImageData(Math.floor(px * scale), Math.floor(py * scale), 1, 1).data;
      return [d[0], d[1], d[2]] as [number, number, number];
    },
    [x, y],
  );
}

export interface SavedView {
  x0: number;
  scale: number;
  scrollY: number;
  selected: number;
}

/** The view state the webview last saved through vscode.setState. */
export async function savedView(page: Page): Promise<SavedView | null> {
  const raw = await page.evaluate(() => sessionStorage.getItem('frozen-run-harness-state'));
  return raw ? (JSON.parse(raw) as SavedView) : null;
}

/** CSS point (relative to the canvas) at the middle of record r on lane `lane`, for a view state. */
export function recordPoint(view: { x0: number; scale: number; scrollY: number }, r: number, lane: number): { x: number; y: number } {
  return {
    x: GUTTER_WIDTH + (r + 0.5 - view.x0) / view.scale,
    y: AXIS_HEIGHT + lane * LANE_HEIGHT - view.scrollY + LANE_HEIGHT / 2,
  };
}

/** The view state after "fit all" on a canvas `cssWidth` wide (what a fresh timeline shows). */
export function fitAllView(recordCount: number, cssWidth: number): { x0: number; scale: number; scrollY: number } {
  const plot = cssWidth - GUTTER_WIDTH - END_PAD;
  return { x0: 0, scale: Math.max(1 / MAX_RECORD_PX, recordCount / plot), scrollY: 0 };
}

export async function canvasBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator('canvas').boundingBox();
  if (!box) throw new Error('no canvas on the page');
  return box;
}

export function differs(a: Pixel, b: Pixel, by = 24): boolean {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > by;
}

/** Resolves after the page drew its next frames (a pending redraw has happened). */
export async function frames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The saved view state once it satisfies `ready` (the view saves shortly after input stops). */
export async function waitForSaved(page: Page, ready: (v: SavedView) => boolean, what: string): Promise<SavedView> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await savedView(page);
    if (v && ready(v)) return v;
    if (Date.now() > deadline) throw new Error(`the view never saved a state where ${what}; last: ${JSON.stringify(v)}`);
    await page.waitForTimeout(25);
  }
}
