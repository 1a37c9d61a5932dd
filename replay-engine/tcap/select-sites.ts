// sched.select@1 keys name a site as `file.tin:LINE` with the base name of the file only; the file
// is found under the given roots (the workspace folders) by that base name.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceLocation } from '../model/recording';

export interface SelectSite {
  file: string;
  line: number;
}

export function parseSelectSite(key: string): SelectSite | undefined {
  const m = /^(.+):(\d+)$/.exec(key);
  if (!m || m[1].includes('/') || m[1].includes('\\')) return undefined;
  return { file: m[1], line: Number(m[2]) };
}

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.tools']);
const MAX_ENTRIES = 50_000;
const MAX_DEPTH = 12;

/** Finds files by base name under the roots, breadth first, once per name (cached per finder). */
export class SiteFinder {
  private found = new Map<string, string | undefined>();

  constructor(private readonly roots: readonly string[]) {}

  locate(key: string): SourceLocation | undefined {
    const site = parseSelectSite(key);
    if (!site) return undefined;
    const path = this.find(site.file);
    return path ? { path, line: site.line, name: `select ${key}` } : undefined;
  }

  find(base: string): string | undefined {
    if (this.found.has(base)) return this.found.get(base);
    let result: string | undefined;
    let seen = 0;
    for (const root of this.roots) {
      let level: string[] = [root];
      for (let depth = 0; depth <= MAX_DEPTH && level.length && !result && seen < MAX_ENTRIES; depth++) {
        const next: string[] = [];
        for (const dir of level) {
          let entries;
          try {
            entries = readdirSync(dir, { withFileTypes: true });
          } catch {
            continue;
          }
          for (const e of entries) {
            seen++;
            if (e.isFile() && e.name === base) {
              result = join(dir, e.name);
              break;
            }
            if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) next.push(join(dir, e.name));
          }
          if (result || seen >= MAX_ENTRIES) break;
        }
        level = next;
      }
      if (result) break;
    }
    this.found.set(base, result);
    return result;
  }
}
