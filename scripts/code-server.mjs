// A real VS Code (code-server 4.100.3, the last release running on Node 20) for the main job and
// the end-to-end tests. Installed on first use into .tools/code-server from the npm registry
// (see ../shared/E2E.md for why each step is needed), reused afterwards.
//
//   node scripts/code-server.mjs install     install (no-op when present)
//   node scripts/code-server.mjs path        print the entry script
//
// Imported by scripts/main-job.mjs and test/e2e/harness.ts for install/serve/stop helpers.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync, chmodSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const toolsDir = join(root, '.tools', 'code-server');
const pkgDir = join(toolsDir, 'node_modules', 'code-server');
const vscodeDir = join(pkgDir, 'lib', 'vscode');
export const entryScript = join(pkgDir, 'out', 'node', 'entry.js');
const doneMarker = join(toolsDir, `.installed-${CODE_SERVER_VERSION}`);

const NATIVE_MODULES = ['kerberos', '@vscode/spdlog', 'native-watchdog', 'node-pty', '@vscode/deviceid'];

function run(cmd, args, cwd) {
  console.log(`[code-server] ${cwd === root ? '' : `(in ${cwd.replace(root + '/', '')}) `}${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status} in ${cwd}`);
}

function which(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function isInstalled() {
  return existsSync(doneMarker) && existsSync(entryScript);
}

/** Installs code-server into .tools/code-server unless it is already there. Takes ~75 s on 2 cores. */
export function installCodeServer() {
  if (isInstalled()) return entryScript;
  const rg = which('rg');
  if (!rg) throw new Error('ripgrep is missing: install it first (Debian: apt-get install ripgrep)');
  const started = Date.now();
  console.log(`[code-server] installing code-server ${CODE_SERVER_VERSION} into ${toolsDir} (first use only)`);
  mkdirSync(toolsDir, { recursive: true });
  if (!existsSync(join(toolsDir, 'package.json'))) {
    writeFileSync(join(toolsDir, 'package.json'), JSON.stringify({ name: 'frozen-run-tools', private: true }, null, 2));
  }
  run('npm', ['install', '--no-save', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], toolsDir);
  run('npm', ['rebuild', 'argon2'], toolsDir);
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
  run('npm', ['rebuild', '--ignore-scripts', ...NATIVE_MODULES], vscodeDir);
  const nodeGyp = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  // Use the headers installed with Node itself (no download from nodejs.org) when they are there.
  const nodePrefix = resolve(dirname(process.execPath), '..');
  const nodeDirArgs = existsSync(join(nodePrefix, 'include', 'node', 'node.h')) ? [`--nodedir=${nodePrefix}`] : [];
  for (const mod of NATIVE_MODULES) {
    const dir = join(vscodeDir, 'node_modules', mod);
    if (!existsSync(dir)) continue;
    run(process.execPath, [existsSync(nodeGyp) ? nodeGyp : which('node-gyp'), 'rebuild', ...nodeDirArgs], dir);
  }
  // @vscode/ripgrep's own install downloads from GitHub; Debian's rg does the same job.
  const rgBin = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgBin, { recursive: true });
  copyFileSync(rg, join(rgBin, 'rg'));
  chmodSync(join(rgBin, 'rg'), 0o755);
  const asar = join(vscodeDir, 'node_modules.asar');
  rmSync(asar, { force: true, recursive: true });
  symlinkSync('node_modules', asar);
  writeFileSync(doneMarker, new Date().toISOString() + '\n');
  console.log(`[code-server] installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return entryScript;
}

/** Runs `code-server --install-extension` for a .vsix into extensionsDir. */
export function installExtension(vsix, extensionsDir) {
  installCodeServer();
  run(process.execPath, [entryScript, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'], root);
}

export async function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts code-server on 127.0.0.1 serving `folder`. Returns { url, port, process, stop }.
 * `trust: false` leaves workspace trust on, so the folder opens in restricted mode.
 * `env` is added to the server's environment (the extension host inherits it: PATH, TIN_REPLAY_KEY).
 */
export async function startCodeServer({ folder, userDataDir, extensionsDir, port, trust = true, env = {}, log } ) {
  installCodeServer();
  port ??= await freePort();
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const args = [
    entryScript, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    ...(trust ? ['--disable-workspace-trust'] : []),
    folder,
  ];
  // VSCODE_CLI=1: the server skips re-reading the environment from a login shell (which would
  // reset PATH from /etc/profile), so the extension host gets exactly this environment.
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, VSCODE_CLI: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const onData = (d) => { output += d.toString(); log?.(d.toString()); };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`;
  await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${output}`)), 60_000);
    const check = () => {
      if (/HTTP server listening/.test(output)) { clearTimeout(timer); resolveReady(); return; }
      if (child.exitCode !== null) { clearTimeout(timer); reject(new Error(`code-server exited (${child.exitCode}):\n${output}`)); return; }
      setTimeout(check, 100);
    };
    check();
  });
  const stop = () => stopProcessGroup(child);
  return { url, port, process: child, stop, output: () => output };
}

/** Stops a process started with `detached: true` together with its children (its process group). */
export async function stopProcessGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
  const timeout = new Promise((r) => setTimeout(() => r('timeout'), 5000));
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2] ?? 'install';
  if (cmd === 'install') installCodeServer();
  else if (cmd === 'path') console.log(installCodeServer());
  else { console.error(`usage: node scripts/code-server.mjs install|path`); process.exit(2); }
}
