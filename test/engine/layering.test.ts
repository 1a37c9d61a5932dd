// Who may import whom (ARCHITECTURE.md): the engine is below every front end and imports none of
// them (nor vscode); the debug adapter's runtime and the MCP server stand on the engine, never on
// the CLI layer (replay-engine/cli/ is a front end like them); the CLI may use the runtime.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/paths';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Each import of a file: the repository-relative folder it reaches, or the package name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+'([^']+)'/gm), ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) =>
    m[1].startsWith('.') ? relative(REPO_ROOT, resolve(dirname(file), m[1])) : m[1],
  );
}

const RULES: Array<{ from: string; except?: string; never: string[] }> = [
  { from: 'replay-engine', except: 'replay-engine/cli', never: ['replay-engine/cli/', 'debug-adapter/', 'mcp-server/', 'extension/', 'language-server/', 'webview-ui/', 'vscode'] },
  { from: 'debug-adapter', never: ['replay-engine/cli/', 'mcp-server/', 'extension/', 'language-server/', 'webview-ui/', 'vscode'] },
  { from: 'mcp-server', never: ['replay-engine/cli/', 'extension/', 'language-server/', 'webview-ui/', 'vscode'] },
];

for (const rule of RULES) {
  test(`${rule.from}/${rule.except ? ` (but ${rule.except}/)` : ''} imports none of ${rule.never.join(', ')}`, () => {
    const bad: string[] = [];
    for (const file of sources(join(REPO_ROOT, rule.from))) {
      const rel = relative(REPO_ROOT, file);
      if (rule.except && rel.startsWith(`${rule.except}/`)) continue;
      for (const target of importsOf(file)) {
        if (rule.never.some((n) => (n.endsWith('/') ? `${target}/`.startsWith(n) : target === n))) bad.push(`${rel} imports ${target}`);
      }
    }
    assert.deepEqual(bad, []);
  });
}

// The recording explains its format (timeline.traits, Recording's methods): no code outside the
// engine's format folders tests which format it holds, but for one narrowing in each front end
// that reaches a capsule's own parts (its request).
const FORMAT_FOLDERS = ['replay-engine/mflrr/', 'replay-engine/tcap/', 'replay-engine/machin/', 'replay-engine/tin/'];
const NARROWINGS = ['debug-adapter/variables.ts', 'extension/view-models/timeline-model.ts'];
const FORMAT_TEST = /instanceof\s+(?:MflrrRecording|TcapRecording)\b|\b[Ff]ormat(?:\(\))?\s*[!=]==?\s*'(?:mflrr|tcap)'|'(?:mflrr|tcap)'\s*[!=]==?\s*\S*[Ff]ormat\b|'(?:task|goroutine)s?'\s*:\s*'(?:task|goroutine)s?'/;

test('no format tests outside the format folders, but one narrowing per front end', () => {
  const found: string[] = [];
  for (const root of ['replay-engine', 'debug-adapter', 'mcp-server', 'extension', 'language-server', 'webview-ui']) {
    for (const file of sources(join(REPO_ROOT, root))) {
      const rel = relative(REPO_ROOT, file);
      if (FORMAT_FOLDERS.some((f) => rel.startsWith(f))) continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (FORMAT_TEST.test(line)) found.push(`${rel}:${i + 1}`);
      });
    }
  }
  const outside = found.filter((f) => !NARROWINGS.some((n) => f.startsWith(`${n}:`)));
  assert.deepEqual(outside, [], 'format tests outside the format folders');
  for (const n of NARROWINGS) assert.equal(found.filter((f) => f.startsWith(`${n}:`)).length, 1, `${n}: one narrowing`);
});
