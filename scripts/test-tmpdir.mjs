// Runs a command (the test runner) with TMPDIR set to a fresh folder of its own, removed after it
// ends: the tests make hundreds of temporary folders (recordings, spools, workspaces, copies), and
// a test stopped half way cannot remove its own. Exits as the command did.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [command, ...args] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'frozen-run-tests-'));
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, TMPDIR: dir } });
// A Ctrl-C reaches the whole foreground group: the runner stops its tests; this waits for it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = code ?? (signal ? 128 : 1);
});
