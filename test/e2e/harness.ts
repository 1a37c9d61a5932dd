// End-to-end harness: the packaged extension installed into a real VS Code (code-server, see
// scripts/code-server.mjs) driven in Debian's Chromium with playwright-core. Each test gets a
// fresh copy of examples/ as its workspace, its own user-data folder and its own server, so
// SecretStorage, trust and settings never leak between tests.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { chromium, type Browser, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { browserTurn } from '../support/browser-turn';
import { newestSource } from '../support/built';
import { machinPath } from '../support/machin';

export const repoRoot = resolve(__dirname, '..', '..');
export const resultsDir = join(repoRoot, 'test-results', 'e2e');
const vsixPath = join(repoRoot, 'dist', 'frozen-run.vsix');
/** The tin stand-in (test/standins/tin-standin.mjs: no tin can be had); machin is the real one. */
const tinStandin = join(repoRoot, 'test', 'standins', 'bin', 'tin');

// scripts/code-server.mjs is an ES module (typed by code-server.d.mts); loaded dynamically.
const codeServer = () => import('../../scripts/code-server.mjs');

/** What the .vsix is made from. */
const VSIX_SOURCES = ['extension', 'debug-adapter', 'replay-engine', 'language-server', 'webview-ui', 'language', 'syntaxes', 'media', 'package.json', 'README.md'];

/**
 * Builds and packages the extension (dist/frozen-run.vsix) unless the one there is newer than
 * every source it is made from: the test files of one `npm test` share one package.
 */
export function packageExtension(): string {
  if (existsSync(vsixPath) && statSync(vsixPath).mtimeMs > newestSource(VSIX_SOURCES)) return vsixPath;
  const r = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`packaging failed:\n${r.stdout}\n${r.stderr}`);
  return vsixPath;
}

export interface VsCode {
  page: Page;
  workspace: string;
  userDataDir: string;
  /** Screenshot into test-results/e2e/<test>-<n>-<step>.png; returns the path. */
  shot(step: string): Promise<string>;
  /** The palette (F1), a command by its title, Enter. */
  runCommand(title: string): Promise<void>;
  /** Quick Open (Ctrl+P) a workspace file by name. */
  openFile(name: string): Promise<void>;
  /** The active editor's cursor to the start of `line` (Go to Line), checked in the status bar. */
  goToLine(line: number): Promise<void>;
  /** The active timeline webview's content frame. */
  timeline(): FrameLocator;
  /** The webview content frame that holds `selector` (waits for it). */
  webviewWith(selector: string, timeoutMs?: number): Promise<Frame>;
  /** Every machin / tin process the extension started, one line each ("machin replay ..."). */
  toolchainRuns(): string[];
  /** Everything the extension host wrote (logs, output channels), for failures and leak checks. */
  extensionHostLogs(): string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Test name, used for screenshot file names. */
  name: string;
  /** Workspace trust on (default) or Restricted Mode (false). */
  trust?: boolean;
  /** Added to the server's environment, which the extension host inherits. */
  env?: Record<string, string>;
  /** Put the toolchains (the real machin, the tin stand-in) first on PATH (default true). */
  toolchains?: boolean;
}

/**
 * `machin` and `tin` wrappers, first on PATH, that append each invocation to a log and then run
 * the real machin (built by test/support/machin.ts) or the tin stand-in: proof of whether the
 * extension started a toolchain process.
 */
function toolchainSpy(base: string): { bin: string; log: string } {
  const bin = join(base, 'spy-bin');
  const log = join(base, 'toolchain-runs.log');
  mkdirSync(bin, { recursive: true });
  for (const [tool, target] of [['machin', machinPath()], ['tin', tinStandin]]) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${log}"\nexec "${target}" "$@"\n`, { mode: 0o755 });
  }
  return { bin, log };
}

const browserArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

export async function startVsCode(opts: StartOptions): Promise<VsCode> {
  const cs = await codeServer();
  cs.installCodeServer();
  const vsix = packageExtension();
  const base = mkdtempSync(join(tmpdir(), 'frozen-run-e2e-'));
  const workspace = join(base, 'examples');
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  cpSync(join(repoRoot, 'examples'), workspace, { recursive: true });
  // No welcome page, no tips: the recording editors are what the screenshots show.
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'security.workspace.trust.startupPrompt': 'always',
    'telemetry.telemetryLevel': 'off',
    'extensions.ignoreRecommendations': true,
    'window.commandCenter': false,
    'git.openRepositoryInParentFolders': 'never',
  }, null, 2));
  cs.installExtension(vsix, extensionsDir);
  const env: Record<string, string> = { ...opts.env };
  const pathParts = [process.env.PATH ?? ''];
  const spy = toolchainSpy(base);
  if (opts.toolchains !== false) pathParts.unshift(spy.bin);
  env.PATH = pathParts.join(delimiter);
  let serverLog = '';
  const server = await cs.startCodeServer({ folder: workspace, userDataDir, extensionsDir, trust: opts.trust ?? true, env, log: (s) => { serverLog += s; } });
  const browser: Browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: browserArgs, headless: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.goto(`http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(workspace)}`, { timeout: 90_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  mkdirSync(resultsDir, { recursive: true });
  let shotNo = 0;

  const vs: VsCode = {
    page,
    workspace,
    userDataDir,
    async shot(step) {
      shotNo++;
      const file = join(resultsDir, `${opts.name}-${String(shotNo).padStart(2, '0')}-${step}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async runCommand(title) {
      const input = page.locator('.quick-input-widget input');
      // The row whose label is exactly the title (recently used commands are listed first).
      const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.getByText(title, { exact: true }) }).first();
      // An editor opening meanwhile (a debug session showing its source) closes the palette: retry.
      for (let attempt = 1; ; attempt++) {
        try {
          // Focus the workbench (not a webview) on an empty spot of the activity bar, then F1.
          await page.locator('.part.activitybar').click({ position: { x: 24, y: 600 } }).catch(() => undefined);
          await page.keyboard.press('F1');
          await input.waitFor({ state: 'visible', timeout: 10_000 });
          await input.fill(`>${title}`, { timeout: 5_000 });
          await row.waitFor({ timeout: 10_000 });
          await row.click({ timeout: 5_000 });
          break;
        } catch (err) {
          await page.keyboard.press('Escape');
          if (attempt >= 4) throw err;
        }
      }
      // The palette closes, or the command opens an input of its own in the same widget (a
      // key prompt): either way the command line (`>...`) is gone.
      await page.waitForFunction(
        () => {
          const el = document.querySelector<HTMLInputElement>('.quick-input-widget input');
          const widget = document.querySelector<HTMLElement>('.quick-input-widget');
          return !el || !widget || widget.style.display === 'none' || !el.value.startsWith('>');
        },
        undefined,
        { timeout: 10_000 },
      );
    },
    async openFile(name) {
      // Quick Open lists files once the workspace's file search is up: retry until it does.
      const input = page.locator('.quick-input-widget input');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+P');
        await input.waitFor({ state: 'visible', timeout: 15_000 });
        await input.fill(name);
        try {
          await row.waitFor({ timeout: 10_000 });
          break;
        } catch (err) {
          await page.keyboard.press('Escape');
          if (attempt >= 5) throw err;
        }
      }
      await input.press('Enter');
    },
    async goToLine(line) {
      // Again until the status bar says the cursor is there: on a loaded machine the Debug
      // Console or a webview can take the focus, so Ctrl+G goes elsewhere or its box closes.
      const input = page.locator('.quick-input-widget input').first();
      for (let attempt = 1; ; attempt++) {
        try {
          await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ timeout: 5_000 });
          await page.keyboard.press('Control+G');
          await input.waitFor({ state: 'visible', timeout: 5_000 });
          await page.keyboard.type(String(line));
          await page.keyboard.press('Enter');
          await page.waitForTimeout(300);
          if (new RegExp(`Ln ${line},`).test((await page.locator('.statusbar').allTextContents()).join(' '))) return;
        } catch (err) {
          if (attempt >= 6) throw err;
        }
        await page.keyboard.press('Escape');
        if (attempt >= 6) throw new Error(`the cursor never reached line ${line}`);
      }
    },
    timeline() {
      return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
    },
    async webviewWith(selector, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const frame of page.frames()) {
          if (frame.name() === 'active-frame' || /fake\.html|index\.html/.test(frame.url())) {
            if ((await frame.locator(selector).count().catch(() => 0)) > 0) return frame;
          }
        }
        if (Date.now() > deadline) throw new Error(`no webview holds ${selector}`);
        await page.waitForTimeout(250);
      }
    },
    toolchainRuns() {
      return existsSync(spy.log) ? readFileSync(spy.log, 'utf8').split('\n').filter(Boolean) : [];
    },
    extensionHostLogs() {
      return collectLogs(userDataDir) + `\n--- code-server ---\n${serverLog}`;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
  return vs;
}

/** Every file under UD/logs (extension host logs, output channels), concatenated with headers. */
export function collectLogs(userDataDir: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/exthost|Frozen Run|frozen-run/i.test(p)) out.push(`--- ${p} ---\n${readFileSync(p, 'utf8')}`);
    }
  };
  walk(join(userDataDir, 'logs'));
  return out.join('\n');
}

/** The notifications, the call stack's rows and the status bar, a few lines each (for a failure's message). */
async function onScreen(page: Page): Promise<string> {
  const texts = async (selector: string) => (await page.locator(selector).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean).slice(0, 12);
  const parts: Array<[string, string]> = [['notifications', '.notifications-toasts .notification-list-item-message'], ['call stack', '.debug-call-stack .monaco-list-row'], ['status bar', '.statusbar .statusbar-item']];
  const out: string[] = [];
  for (const [name, selector] of parts) out.push(`  ${name}: ${JSON.stringify(await texts(selector))}`);
  return out.join('\n');
}

/**
 * Runs a test body against a fresh VS Code; on failure saves a screenshot and prints the
 * extension host logs (so a CI failure says why), and always closes everything. One VS Code runs
 * at a time (test/support/browser-turn.ts), while other test files run beside it.
 */
export async function withVsCode(opts: StartOptions, body: (vs: VsCode) => Promise<void>): Promise<void> {
  const endTurn = await browserTurn();
  let vs: VsCode;
  try {
    vs = await startVsCode(opts);
  } catch (err) {
    endTurn();
    throw err;
  }
  try {
    await body(vs);
  } catch (err) {
    const shot = await vs.shot('FAILED').catch(() => 'none');
    const logs = vs.extensionHostLogs();
    const logFile = join(resultsDir, `${opts.name}-exthost.log`);
    writeFileSync(logFile, logs);
    console.error(`\n[e2e] ${opts.name} failed; screenshot ${shot}; extension host logs ${logFile}:\n${logs.slice(-6000)}`);
    // What the screen said, in the error itself: the failing-tests summary (what CI shows) keeps it.
    if (err instanceof Error) {
      const said = `\n[e2e] on screen when it failed:\n${await onScreen(vs.page).catch((e: unknown) => String(e))}`;
      err.message += said;
      if (err.stack) err.stack += said; // (the stack, made with the first message, is what gets printed)
    }
    throw err;
  } finally {
    await vs.close();
    endTurn();
  }
}
