// Finds the program a trace names. A trace mailed from another machine names a path that does not
// exist here (`/home/ci/app/crash.mfl`), so after the explicit choice and the named path we look
// for the same file name beside the trace, then in the given roots (the workspace folders).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ToolchainOptions } from '../open-options';
import { kindOf, openRegularFile } from '../regular-file';
import { isInsideRoots } from './inside-roots';

export type ProgramSource = 'explicit' | 'trace' | 'beside-trace' | 'roots';

export interface FoundProgram {
  /** Absolute path of the `.mfl` source. */
  path: string;
  how: ProgramSource;
  /** Inside one of options.programRoots (without roots: the trace's folder), links resolved; or the user named it. */
  trusted: boolean;
  /** Something the user should know (several candidates, the one chosen). */
  note?: string;
}

export interface ProgramNotFound {
  path: null;
  /** One clear sentence: what was looked for, where, and what to do. */
  message: string;
}

/** Bounds of the search in roots: a workspace may be huge. */
export const SEARCH_LIMITS = { maxDepth: 8, maxEntries: 50_000 };
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '.vscode-test']);

/**
 * @param traceFile absolute path of the recording
 * @param tracedProgram the trace's `program` line, or null when it has none
 */
export async function findProgram(
  traceFile: string,
  tracedProgram: string | null,
  options: ToolchainOptions,
): Promise<FoundProgram | ProgramNotFound> {
  const roots = options.programRoots?.length ? options.programRoots.map((r) => path.resolve(r)) : undefined;
  // Without roots (the CLI, a standalone adapter, a window with no folder) only the trace's own
  // folder and its subfolders are inside: a trace naming `../outside/evil.mfl` or `/etc/passwd`
  // needs an explicit program. Compared through symlinks (isInsideRoots).
  const inside = roots ?? [path.dirname(path.resolve(traceFile))];
  const trusted = (p: string) => isInsideRoots(p, inside);

  if (options.program) {
    const p = path.resolve(options.program);
    const kind = await kindAt(p);
    if (kind === 'file') return { path: p, how: 'explicit', trusted: true };
    if (kind !== 'missing') return { path: null, message: `program ${p} (set as the program for this trace) is ${kind}, or a link to one, not a regular file: a program is read only from a regular file; set program to its .mfl source` };
    return { path: null, message: `program ${p} (set as the program for this trace) not found; fix the setting or open the program in the workspace` };
  }
  if (!tracedProgram) {
    return { path: null, message: `the trace has no \`program\` line, so the program is unknown; set program (launch configuration \`program\`, CLI --program) to its .mfl source` };
  }
  // A path that is there but not a regular file (a FIFO, a device) is named as what it is if no
  // program is found elsewhere, never called "not found".
  let odd: { path: string; kind: string } | undefined;
  const look = async (p: string): Promise<boolean> => {
    const kind = await kindAt(p);
    if (kind !== 'file' && kind !== 'missing') odd ??= { path: p, kind };
    return kind === 'file';
  };
  const named = path.resolve(path.dirname(traceFile), tracedProgram);
  if (await look(named)) return { path: named, how: 'trace', trusted: await trusted(named) };

  const base = baseName(tracedProgram);
  const beside = path.join(path.dirname(traceFile), base);
  if (await look(beside)) return { path: beside, how: 'beside-trace', trusted: await trusted(beside) };

  const candidates: string[] = [];
  for (const root of roots ?? []) await searchRoot(root, base, candidates);
  if (candidates.length > 0) {
    const ranked = rank(candidates, tracedProgram);
    const best = ranked[0];
    const note =
      ranked.length > 1
        ? `${ranked.length} files named ${base} in the workspace; using ${best} (set program to choose another)`
        : undefined;
    return { path: best, how: 'roots', trusted: await trusted(best), note };
  }
  if (odd) {
    return {
      path: null,
      message: `program ${odd.path} is ${odd.kind}, or a link to one, not a regular file: a program is read only from a regular file (machin could not compile it either); copy the program into a file beside the trace, or set program`,
    };
  }
  return {
    path: null,
    message: `program ${tracedProgram} not found (looked beside the trace${roots?.length ? ' and in the workspace' : ''} for ${base}); open it in the workspace or set program`,
  };
}

/** The file name of a path written on another machine, POSIX or Windows. */
function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

/** Breadth-first, bounded, skipping dependency and VCS folders and symlinked folders. */
async function searchRoot(root: string, base: string, found: string[]): Promise<void> {
  let level = [root];
  let entries = 0;
  for (let depth = 0; depth <= SEARCH_LIMITS.maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let list;
      try {
        list = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of list) {
        if (++entries > SEARCH_LIMITS.maxEntries) return;
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) next.push(path.join(dir, e.name));
        } else if (e.name === base && (e.isFile() || e.isSymbolicLink())) {
          const p = path.join(dir, e.name);
          if ((await isFile(p)) && !found.includes(p)) found.push(p);
        }
      }
    }
    level = next;
  }
}

/** Candidates sharing more trailing path components with the traced path first, then shallower. */
function rank(candidates: string[], traced: string): string[] {
  const tracedParts = traced.split(/[\\/]/).filter(Boolean).reverse();
  const score = (p: string) => {
    const parts = p.split(path.sep).filter(Boolean).reverse();
    let n = 0;
    while (n < parts.length && n < tracedParts.length && parts[n] === tracedParts[n]) n++;
    return n;
  };
  return [...candidates].sort((a, b) => score(b) - score(a) || a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b));
}

/** 'file' for a regular file (links followed), 'missing', or what else it is (kindOf's words). */
async function kindAt(p: string): Promise<string> {
  try {
    const st = await fs.stat(p);
    return st.isFile() ? 'file' : kindOf(st);
  } catch {
    return 'missing';
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * The `program` line of a trace's header (machin trims it), or null when the header has none.
 * Only the header is read: records start at the first `S`/`I` line.
 */
export async function readTracedProgram(traceFile: string): Promise<string | null> {
  const { handle, size } = await openRegularFile(traceFile);
  try {
    const buf = new Uint8Array(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, size), 0);
    const lines = new TextDecoder().decode(buf.subarray(0, bytesRead)).split('\n');
    if (bytesRead === buf.length) lines.pop(); // may be cut by the buffer
    for (const raw of lines) {
      const line = raw.replace(/\r$/, '');
      if (line.startsWith('S ') || line.startsWith('I ')) break;
      if (line.startsWith('program ')) return line.slice('program '.length).trim() || null;
    }
    return null;
  } finally {
    await handle.close();
  }
}
