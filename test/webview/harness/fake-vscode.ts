// Runs in the harness page before the webview bundle: stands in for what VS Code provides to a
// webview (acquireVsCodeApi, theme CSS variables, messages from the host) and records what the
// view sends, so tests drive the real bundle exactly as the extension host would.
import { packHistory, packModel, PROTOCOL_VERSION, type HistoryModel } from '../../../webview-ui/protocol';
import { patternModel, syntheticModel } from './synthetic-model';
import { THEMES } from './themes';

const sent: unknown[] = [];
const cspViolations: string[] = [];
document.addEventListener('securitypolicyviolation', (e) => cspViolations.push(`${e.violatedDirective}: ${e.blockedURI || e.sample}`));

let acquired = false;
const STATE_KEY = 'frozen-run-harness-state';
(window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => {
  if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
  acquired = true;
  return {
    postMessage: (m: unknown) => {
      sent.push(m);
      // The test's stand-in for the extension host, when it registered one (page.exposeFunction).
      const host = (window as unknown as { __frozenRunHost?: (m: unknown) => unknown }).__frozenRunHost;
      if (typeof host === 'function') void host(m);
    },
    // VS Code keeps webview state in the host across reloads; sessionStorage survives page.reload().
    getState: () => {
      const s = sessionStorage.getItem(STATE_KEY);
      return s ? JSON.parse(s) : undefined;
    },
    setState: (s: unknown) => sessionStorage.setItem(STATE_KEY, JSON.stringify(s)),
  };
};

/** VS Code sets the theme as CSS variables on <html> and a class on <body>. */
function applyTheme(name: string): void {
  const theme = THEMES[name] ?? THEMES.dark;
  for (const [k, v] of Object.entries(theme.vars)) document.documentElement.style.setProperty(k, v);
  const apply = () => document.body.classList.add(theme.bodyClass);
  if (document.body) apply();
  else document.addEventListener('DOMContentLoaded', apply);
}
applyTheme(new URLSearchParams(location.search).get('theme') ?? 'dark');

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const harness = {
  sent,
  cspViolations,
  PROTOCOL_VERSION,
  /** Deliver a message from the "host", as VS Code does (a window message event). */
  post(message: unknown): void {
    window.postMessage(message, '*');
  },
  postModelBase64(b64: string): void {
    window.postMessage({ type: 'model', version: PROTOCOL_VERSION, data: fromBase64(b64) }, '*');
  },
  postHistoryBase64(b64: string): void {
    window.postMessage({ type: 'history', version: PROTOCOL_VERSION, data: fromBase64(b64) }, '*');
  },
  /** Generate, pack and post a synthetic model; returns the packed size in bytes. */
  postSyntheticModel(records: number, lanes: number, withPanic = true): number {
    const data = packModel(syntheticModel(records, lanes, withPanic));
    window.postMessage({ type: 'model', version: PROTOCOL_VERSION, data }, '*');
    return data.byteLength;
  },
  packHistory: (h: HistoryModel) => packHistory(h),
  postPatternModel(records: number): void {
    window.postMessage({ type: 'model', version: PROTOCOL_VERSION, data: packModel(patternModel(records)) }, '*');
  },
  /** Switch theme as VS Code does while the view is open. */
  setTheme(name: string): void {
    document.body.classList.remove('vscode-dark', 'vscode-light');
    applyTheme(name);
  },

  // Benchmark support: build the model outside the measured span, then time its delivery.
  prepared: null as Uint8Array | null,
  postedAt: 0,
  prepareSynthetic(records: number, lanes: number): number {
    harness.prepared = packModel(syntheticModel(records, lanes, true));
    return harness.prepared.byteLength;
  },
  /** Keep a model the test packed in Node (a real recording's) for postPrepared / firstPaint. */
  prepareBase64(b64: string): number {
    harness.prepared = fromBase64(b64);
    return harness.prepared.byteLength;
  },
  postPrepared(): void {
    harness.postedAt = performance.now();
    window.postMessage({ type: 'model', version: PROTOCOL_VERSION, data: harness.prepared }, '*');
  },
  /** Posts the prepared model; resolves with ms until the frame after the view's first paint. */
  firstPaint(): Promise<number> {
    return new Promise((done) => {
      performance.clearMarks('timeline-first-paint');
      harness.postPrepared();
      const poll = () => {
        if (performance.getEntriesByName('timeline-first-paint').length > 0) {
          requestAnimationFrame(() => done(performance.now() - harness.postedAt));
        } else setTimeout(poll, 1);
      };
      poll();
    });
  },
  /** Baseline for first paint: the same bytes delivered to a listener that only waits for the next frame. */
  baselineDelivery(): Promise<number> {
    return new Promise((done) => {
      const t0 = performance.now();
      const onMessage = (e: MessageEvent) => {
        if ((e.data as { type?: string })?.type !== 'bench-echo') return;
        window.removeEventListener('message', onMessage);
        requestAnimationFrame(() => done(performance.now() - t0));
      };
      window.addEventListener('message', onMessage);
      window.postMessage({ type: 'bench-echo', data: harness.prepared }, '*');
    });
  },
  /** Baseline for a frame: clearing and blitting a full ImageData onto a canvas of the given size. */
  baselineBlit(width: number, height: number): number {
    const c = document.createElement('canvas');
    c.width = width;
    c.height = height;
    const ctx = c.getContext('2d', { alpha: false })!;
    const img = new ImageData(width, height);
    const px = new Uint32Array(img.data.buffer);
    const t0 = performance.now();
    ctx.fillRect(0, 0, width, height);
    px.fill(0xff202020);
    ctx.putImageData(img, 0, 0);
    ctx.getImageData(0, 0, 1, 1); // forces the blit to finish
    return performance.now() - t0;
  },
};

(window as unknown as { harness: typeof harness }).harness = harness;
