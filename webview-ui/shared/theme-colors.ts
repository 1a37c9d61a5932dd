// Canvas needs concrete colors; the theme gives CSS variables (--vscode-*) in any CSS color
// syntax. Resolve them through a 1x1 canvas so every syntax (#rgb, rgba(), names) works, and
// re-resolve when VS Code switches themes (it rewrites the body class and style).

export type Rgba = readonly [number, number, number, number];

let probe: CanvasRenderingContext2D | null = null;

/** The computed color of a CSS variable (or the fallback when the theme does not define it). */
export function cssColor(variable: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(variable).trim();
  return v || fallback;
}

export function toRgba(color: string): Rgba {
  probe ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!probe) return [128, 128, 128, 255];
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000';
  probe.fillStyle = color;
  probe.fillRect(0, 0, 1, 1);
  const d = probe.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3]];
}

export function rgbaString([r, g, b, a]: Rgba): string {
  return `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`;
}

/**
 * Calls `changed` when VS Code switches the color theme: it rewrites the theme variables in the
 * <html> style attribute and the theme class on <body>.
 */
export function onThemeChange(changed: () => void): void {
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
}
