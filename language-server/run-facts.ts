// What debug sessions told the server about recordings (panic, thread labels) and about the
// cursor (watched values for inline values). Kept per document URI; survives the document
// being closed and reopened, since the facts belong to the recording, not to the editor.
import type { CursorValuesParams, RunFactsParams } from './protocol';

export interface PanicFacts {
  position: number;
  thread: string;
  message?: string;
}

export class RunFactsStore {
  private panics = new Map<string, PanicFacts>();
  private labels = new Map<string, Record<string, string>>();
  cursor: CursorValuesParams | null = null;

  update(p: RunFactsParams): void {
    const key = normalizeUri(p.uri);
    if (p.panic === null) this.panics.delete(key);
    else if (p.panic && Number.isInteger(p.panic.position) && p.panic.position >= 0 && typeof p.panic.thread === 'string') {
      this.panics.set(key, { position: p.panic.position, thread: p.panic.thread, message: typeof p.panic.message === 'string' ? p.panic.message : undefined });
    }
    if (p.labels && typeof p.labels === 'object') {
      const clean: Record<string, string> = {};
      for (const [id, label] of Object.entries(p.labels)) if (typeof label === 'string') clean[id] = label;
      this.labels.set(key, { ...this.labels.get(key), ...clean });
    }
  }

  panic(uri: string): PanicFacts | undefined {
    return lookup(this.panics, uri);
  }

  /** The label of a thread: from the session when it said, `main` for machin's goroutine 0. */
  label(uri: string, threadId: string, format: 'trace' | 'capsule'): string {
    const told = lookup(this.labels, uri)?.[threadId];
    if (told !== undefined) return told;
    if (threadId === '0') return format === 'trace' ? 'main' : 'request';
    return '';
  }

  setCursor(p: CursorValuesParams): void {
    this.cursor = p.values && Object.keys(p.values).length > 0 ? p : null;
  }
}

/**
 * Facts are sent for the recording file; the same recording also shows as the decoded capsule
 * document (`frozen-run-capsule:/path.tcap.decoded`) and as the debug adapter's read-only copy
 * (`debug:crash.mflrr (replay)?session=...`). Those find the file's facts.
 */
function lookup<T>(map: Map<string, T>, uri: string): T | undefined {
  const key = normalizeUri(uri);
  const exact = map.get(key);
  if (exact !== undefined || map.size === 0) return exact;
  const capsule = /^frozen-run-capsule:(.*)\.decoded$/.exec(key);
  if (capsule) return map.get(`file://${capsule[1]}`) ?? map.get(key.replace(/\.decoded$/, ''));
  const served = /^debug:(?:.*\/)?([^/?#]+?) \((?:replay|decoded)\)(?:[?#]|$)/.exec(key);
  if (served) {
    for (const [k, v] of map) if (k.endsWith(`/${served[1]}`)) return v;
  }
  return undefined;
}

/** URIs from the client and from the extension may differ in percent-encoding (`%3A` vs `:`). */
export function normalizeUri(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}
