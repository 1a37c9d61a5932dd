// Which log points a `setBreakpoints` request should print (issue 30): VS Code sends every
// breakpoint of a file on each change, so only the log points that are new, or whose line,
// column, message, condition or hit count changed since the last request print their hits; one
// removed and set again prints again.

export interface PrintedLogPoint {
  line: number;
  column?: number;
  logMessage: string;
  condition?: string;
  hitCondition?: string;
}

export class LogPointChanges {
  private printed = new Set<string>();

  /** The log points of this request that were not printed as they are now; remembers this request's as the printed ones. */
  fresh<T extends PrintedLogPoint>(logPoints: T[]): T[] {
    const now = new Set<string>();
    const out: T[] = [];
    for (const p of logPoints) {
      const key = JSON.stringify([p.line, p.column ?? null, p.logMessage, p.condition?.trim() || '', p.hitCondition?.trim() || '']);
      if (!this.printed.has(key) && !now.has(key)) out.push(p);
      now.add(key);
    }
    this.printed = now;
    return out;
  }
}
