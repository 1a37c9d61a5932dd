// docs/mcp.md's example sessions, run as written (issue 27, point 5): every call line of the
// doc's two example blocks is sent to the server (with --toolchain and the real machin) on the
// recording it names, in order, and every fact the line promises after its arrow is in the answer:
// each quoted text, each `key: number`. So the doc cannot drift from the server.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordProgram } from '../support/machin';
import { DIVIDER } from '../support/panic-programs';
import { REPO_ROOT } from '../support/paths';
import { tempDir } from '../machin/support';
import { MACHIN, McpSession } from './support';

const DOC = readFileSync(join(REPO_ROOT, 'docs', 'mcp.md'), 'utf8');

/** The lines of the first code block after the heading. */
function exampleBlock(heading: string): string[] {
  const at = DOC.indexOf(heading);
  assert.ok(at >= 0, `docs/mcp.md has no "${heading}"`);
  const open = DOC.indexOf('```\n', at);
  const close = DOC.indexOf('```', open + 4);
  return DOC.slice(open + 4, close).split('\n').filter((l) => l.trim());
}

/** The object literal that starts at `from` (balanced braces, quoted strings respected). */
function literalAt(text: string, from: number): string {
  let depth = 0;
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(from, i + 1);
  }
  throw new Error(`unbalanced braces in: ${text}`);
}

/** A doc literal (`{recording: "r1", until: {line: 19}}`) as JSON. */
function asJson(literal: string): Record<string, unknown> {
  return JSON.parse(literal.replace(/([{,]\s*)([A-Za-z_]\w*)\s*:/g, '$1"$2":')) as Record<string, unknown>;
}

interface DocCall {
  line: string;
  tool: string;
  args: Record<string, unknown>;
  /** The quoted texts the answer must hold (a `...` in the doc stands for more text). */
  texts: string[];
  /** `key: N` pairs the answer must hold. */
  numbers: Array<[string, number]>;
}

function docCalls(heading: string): DocCall[] {
  return exampleBlock(heading).map((line) => {
    const m = /^(\w+) /.exec(line);
    assert.ok(m, `not a call: ${line}`);
    const literal = literalAt(line, line.indexOf('{'));
    const arrow = line.indexOf('→', line.indexOf(literal) + literal.length);
    assert.ok(arrow > 0, `no answer after the call: ${line}`);
    // A parenthesised aside after the answer (another frame's value) is not this call's.
    const promised = line.slice(arrow + 1).replace(/\s{2,}\(.*\)\s*$/, '');
    const texts = [...promised.matchAll(/"((?:[^"\\]|\\.)*)"/g)].flatMap((t) => t[1].split(/\s*\.\.\.\s*/).filter(Boolean));
    const numbers = [...promised.matchAll(/\b([A-Za-z_]\w*): (\d+)\b/g)].map((n): [string, number] => [n[1], Number(n[2])]);
    return { line, tool: m[1], args: asJson(literal), texts, numbers };
  });
}

async function runSession(calls: DocCall[], paths: Record<string, string>): Promise<void> {
  const mcp = await McpSession.start(['--toolchain', '--machin', MACHIN]);
  try {
    for (const c of calls) {
      const args = { ...c.args };
      if (typeof args.path === 'string') {
        assert.ok(paths[args.path], `the doc opens ${args.path}, which this test does not know`);
        args.path = paths[args.path];
      }
      const answer = await mcp.ok(c.tool, args);
      const text = JSON.stringify(answer);
      for (const t of c.texts) assert.ok(text.includes(JSON.stringify(t).slice(1, -1)), `docs/mcp.md: ${c.line}\n  the answer has no "${t}":\n  ${text.slice(0, 1500)}`);
      for (const [k, n] of c.numbers) assert.ok(text.includes(`"${k}":${n}`), `docs/mcp.md: ${c.line}\n  the answer has no ${k}: ${n}:\n  ${text.slice(0, 1500)}`);
    }
  } finally {
    await mcp.close();
  }
}

describe("docs/mcp.md's example sessions, as written", () => {
  it('"An agent\'s session" on the bundled crash trace', async () => {
    const dir = tempDir('mcp-doc-crash-');
    copyFileSync(join(REPO_ROOT, 'examples', 'crash.mflrr'), join(dir, 'crash.mflrr'));
    copyFileSync(join(REPO_ROOT, 'examples', 'crash.mfl'), join(dir, 'crash.mfl'));
    const calls = docCalls("## An agent's session");
    assert.ok(calls.length >= 4, 'the session lists its calls');
    await runSession(calls, { 'crash.mflrr': join(dir, 'crash.mflrr') });
  });

  it('the source-level session on the divider program', async () => {
    const rec = recordProgram(tempDir('mcp-doc-divider-'), 'divider', DIVIDER.source);
    const calls = docCalls('## Source level: statements, frames and the one runtime');
    assert.ok(calls.length >= 5, 'the session lists its calls');
    await runSession(calls, { 'divider.mflrr': rec.trace });
  });
});
