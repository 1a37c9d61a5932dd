// The timeline's colors, all from the VS Code theme (CSS variables), resolved for the canvas.
import { cssColor, toRgba, type Rgba } from '../shared/theme-colors';

export interface Palette {
  background: Rgba;
  foreground: string;
  muted: string;
  laneStripe: Rgba;
  gridLine: string;
  step: Rgba;
  chain: Rgba;
  io: Rgba;
  /** Per kind index, for the zoomed-in view of capsules (redis, http, sql ... in different colors). */
  kinds: Rgba[];
  cursor: string;
  panic: string;
  divergence: string;
  selection: string;
  chainBand: Rgba;
  scrollbar: string;
  /** Log point hits (issue 30). */
  logPoint: string;
  /** A value's origin chain (issue 30). */
  origin: string;
  font: string;
}

const KIND_VARS: Array<[string, string]> = [
  ['--vscode-charts-blue', '#3794ff'],
  ['--vscode-charts-purple', '#b180d7'],
  ['--vscode-charts-yellow', '#cca700'],
  ['--vscode-charts-green', '#89d185'],
  ['--vscode-charts-red', '#f14c4c'],
  ['--vscode-charts-foreground', '#cccccc'],
];

export function resolvePalette(kinds: string[]): Palette {
  const c = (v: string, f: string) => toRgba(cssColor(v, f));
  const background = c('--vscode-editor-background', '#1e1e1e');
  const fg = cssColor('--vscode-editor-foreground', '#cccccc');
  const stripe = toRgba(cssColor('--vscode-list-hoverBackground', 'rgba(128,128,128,0.08)'));
  const kindColors = kinds.map((name, i) => {
    if (name === 'io' || name.startsWith('io')) return c('--vscode-charts-green', '#89d185');
    const [v, f] = KIND_VARS[i % KIND_VARS.length];
    return c(v, f);
  });
  const family = cssColor('--vscode-editor-font-family', 'monospace');
  const fontSize = cssColor('--vscode-font-size', '12px');
  return {
    background: [background[0], background[1], background[2], 255],
    foreground: fg,
    muted: cssColor('--vscode-descriptionForeground', '#999999'),
    laneStripe: blendOver(background, stripe),
    gridLine: cssColor('--vscode-editorRuler-foreground', 'rgba(128,128,128,0.3)'),
    step: c('--vscode-charts-blue', '#3794ff'),
    chain: c('--vscode-charts-orange', '#d18616'),
    io: c('--vscode-charts-green', '#89d185'),
    kinds: kindColors,
    cursor: cssColor('--vscode-debugIcon-breakpointCurrentStackframeForeground', '#ffcc00'),
    panic: cssColor('--vscode-errorForeground', '#f48771'),
    divergence: cssColor('--vscode-editorWarning-foreground', '#cca700'),
    selection: cssColor('--vscode-focusBorder', '#007fd4'),
    chainBand: blendOver(background, withAlpha(c('--vscode-charts-orange', '#d18616'), 28)),
    scrollbar: cssColor('--vscode-scrollbarSlider-background', 'rgba(121,121,121,0.4)'),
    logPoint: cssColor('--vscode-debugIcon-breakpointForeground', '#e51400'),
    origin: cssColor('--vscode-charts-purple', '#b180d7'),
    font: `${fontSize} ${family}`,
  };
}

export function withAlpha([r, g, b]: Rgba, a: number): Rgba {
  return [r, g, b, a];
}

/** `top` over an opaque `bottom`, as an opaque color. */
export function blendOver(bottom: Rgba, top: Rgba): Rgba {
  const a = top[3] / 255;
  return [
    Math.round(bottom[0] * (1 - a) + top[0] * a),
    Math.round(bottom[1] * (1 - a) + top[1] * a),
    Math.round(bottom[2] * (1 - a) + top[2] * a),
    255,
  ];
}

/** Pack an opaque color into one little-endian RGBA uint32 for ImageData's Uint32Array view. */
export function packRgba([r, g, b]: Rgba): number {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}
