// Opens a webview bundle in headless Chromium inside a page built exactly like the host's
// (webviewHtml from webview-ui/protocol.ts: same CSP, nonce'd script tags), served from a fake
// origin through request interception, so nothing touches the network.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webviewHtml } from '../../../webview-ui/protocol';
import { browserTurn } from '../../support/browser-turn';
import { ensureBuilt } from '../../support/built';

export const REPO = resolve(__dirname, '../../..');
const ORIGIN = 'http://frozen-run.test';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--headless',
];

export type ViewName = 'timeline' | 'history' | 'compare';

/** Headless Chromium, once no other test file drives a browser (test/support/browser-turn.ts); closing it ends the turn. */
export async function launch(): Promise<Browser> {
  const endTurn = await browserTurn();
  try {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
    browser.on('disconnected', endTurn);
    return browser;
  } catch (err) {
    endTurn();
    throw err;
  }
}

let harnessJs: string | undefined;

async function harnessBundle(): Promise<string> {
  if (harnessJs === undefined) {
    const out = await build({
      entryPoints: [join(__dirname, 'fake-vscode.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      logLevel: 'silent',
    });
    harnessJs = out.outputFiles[0].text;
  }
  return harnessJs;
}

/** The bundle the extension ships (dist/webview/<view>.js), as `npm run build` makes it (test/support/built.ts). */
export async function viewBundle(view: ViewName): Promise<string> {
  return readFileSync(join(ensureBuilt(), 'webview', `${view}.js`), 'utf8');
}

export interface OpenedView {
  page: Page;
  /** Messages the view posted to the host. */
  sent(): Promise<Array<{ type: string; [k: string]: unknown }>>;
  /** CSP violations reported in the page, and page errors. */
  problems(): Promise<string[]>;
  /** Wait until the view posted a message of `type` (optionally matching) and return it. */
  waitForSent(type: string, match?: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

export async function openView(
  browser: Browser,
  view: ViewName,
  opts: {
    theme?: 'dark' | 'light';
    width?: number;
    height?: number;
    /** Answers the view's messages like the extension host would (called for every postMessage). */
    host?: (message: Record<string, unknown>, page: Page) => Promise<void> | void;
  } = {},
): Promise<OpenedView> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1200, height: opts.height ?? 760 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
  if (opts.host) {
    const host = opts.host;
    await page.exposeFunction('__frozenRunHost', (m: Record<string, unknown>) => host(m, page));
  }
  const bundle = await viewBundle(view);
  const harness = await harnessBundle();
  const nonce = 'dGVzdC1ub25jZS0xMjM0NTY3OA';
  const html = webviewHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/dist/${view}.js`, title: `Frozen Run ${view}` }).replace(
    '<script nonce=',
    `<script nonce="${nonce}" src="${ORIGIN}/harness.js"></script>\n<script nonce=`,
  );
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === `/${view}.html`) return route.fulfill({ contentType: 'text/html', body: html });
    if (url.pathname === `/dist/${view}.js`) return route.fulfill({ contentType: 'text/javascript', body: bundle });
    if (url.pathname === '/harness.js') return route.fulfill({ contentType: 'text/javascript', body: harness });
    return route.fulfill({ status: 404, body: 'not found' });
  });
  await page.goto(`${ORIGIN}/${view}.html?theme=${opts.theme ?? 'dark'}`);
  const sent = () => page.evaluate(() => (window as unknown as { harness: { sent: unknown[] } }).harness.sent) as Promise<Array<{ type: string }>>;
  return {
    page,
    sent,
    async problems() {
      const csp = await page.evaluate(() => (window as unknown as { harness: { cspViolations: string[] } }).harness.cspViolations);
      return [...csp.map((c) => `csp: ${c}`), ...pageErrors];
    },
    async waitForSent(type, match) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = (await sent()).filter((m) => m.type === type && (!match || match(m as Record<string, unknown>)));
        if (found.length > 0) return found[found.length - 1] as Record<string, unknown>;
        if (Date.now() > deadline) throw new Error(`the view never posted ${type}; it posted ${JSON.stringify(await sent())}`);
        await page.waitForTimeout(20);
      }
    },
  };
}
