// `npm start`: build, package the .vsix, install it into VS Code and open examples/.
//
//   npm start                         VS Code (`code`) when on PATH, else a local code-server
//                                     (installed into .tools/ on first use) at http://127.0.0.1:PORT
//   npm start -- --code-server        always the local code-server
//   npm start -- --port 8080          its port (default 8080, or PORT)
//   npm start -- --restricted         leave workspace trust on (see Restricted Mode)
//   npm start -- --screenshot [FILE]  headless check: open the crash trace in Chromium, save a
//                                     screenshot (default test-results/main-job.png), stop
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installCodeServer, installExtension, startCodeServer } from './code-server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith('--') ? args[i + 1] : undefined;
};
const examples = join(root, 'examples');
const vsix = join(root, 'dist', 'frozen-run.vsix');

function step(text) {
  console.log(`\n==> ${text}`);
}

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${cmd} ${cmdArgs.join(' ')} failed (exit ${r.status})`);
    process.exit(1);
  }
}

function hasCode() {
  return spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
}

step('build and package the extension (npm run package)');
run('npm', ['run', 'package']);

const screenshot = flag('--screenshot');
if (hasCode() && !flag('--code-server') && !screenshot) {
  step('install into VS Code (code --install-extension)');
  run('code', ['--install-extension', vsix, '--force']);
  step('open examples/ in VS Code');
  run('code', [examples]);
  console.log('\nOpen crash.mflrr in the Explorer, then press "Replay to Panic" in the editor title.');
  process.exit(0);
}

step('code-server 4.100.3 (installed into .tools/code-server on first use)');
installCodeServer();
const dataDir = join(root, '.tools', 'vscode-data');
const extensionsDir = join(dataDir, 'extensions');
const userDataDir = join(dataDir, screenshot ? 'user-screenshot' : 'user');
mkdirSync(join(userDataDir, 'User'), { recursive: true });
const settings = join(userDataDir, 'User', 'settings.json');
if (!existsSync(settings)) {
  writeFileSync(settings, JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'git.openRepositoryInParentFolders': 'never' }, null, 2));
}
step('install the extension into code-server');
installExtension(vsix, extensionsDir);

// machin is no package: built from ../shared/toolchains/machin into .tools/machin (README,
// "Getting machin"); when it is there the server's PATH has it, so Replay to Panic replays.
const machinDir = join(root, '.tools', 'machin');
const hasMachin = existsSync(join(machinDir, 'machin'));
if (hasMachin) console.log(`machin: ${join(machinDir, 'machin')} (first on the server's PATH)`);
else console.log('machin: not built (.tools/machin/machin): the timeline works without it, but no panic, values or statements. To build it: bash ../shared/toolchains/machin/build.sh .tools/machin (needs Go).');
const env = hasMachin ? { PATH: `${machinDir}${delimiter}${process.env.PATH ?? ''}` } : {};

const port = Number(value('--port') ?? process.env.PORT ?? (screenshot ? 0 : 8080)) || undefined;
step('serve examples/');
const server = await startCodeServer({ folder: examples, userDataDir, extensionsDir, port, trust: !flag('--restricted'), env });
const url = `http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(examples)}`;

if (screenshot) {
  const file = resolve(root, value('--screenshot') ?? join('test-results', 'main-job.png'));
  try {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('crash.mflrr');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'crash.mflrr' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('iframe.webview.ready').first().waitFor({ timeout: 60_000 });
    // With machin the header shows the panic machin replayed (a moment after the timeline draws).
    if (hasMachin) {
      const timeline = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
      await timeline.getByText('index out of range').first().waitFor({ timeout: 90_000 }).catch(() => console.log('machin gave no panic in time: see the Frozen Run output'));
    }
    await page.waitForTimeout(2000);
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    await browser.close();
    console.log(`\nscreenshot: ${file}`);
  } finally {
    await server.stop();
  }
  process.exit(0);
}

console.log(`\nFrozen Run is installed in code-server, serving examples/ at:\n\n    ${url}\n`);
console.log('Open crash.mflrr in the Explorer, then press "Replay to Panic" in the editor title.');
console.log('Press Ctrl-C to stop.');
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
