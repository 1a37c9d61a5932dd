// Scopes and variables for a stopped frame, built lazily: a variablesReference is a closure that
// makes its children when the client expands it. References are forgotten at every stop.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { Handles } from '@vscode/debugadapter';
import type { DecodedValue } from '../replay-engine/model/recording';
import { readyStatements } from '../replay-engine/model/recording';
import { pickVariable, splitAsked, variablesNamed } from '../replay-engine/model/statement-histories';
import { stepAtPosition } from '../replay-engine/model/step-words';
import type { CapsuleRecording } from '../replay-engine/model/recording';
import { divergenceText } from './breakpoints';
import type { ReplayRuntime } from './runtime';
import { frameNames } from './statement-place';

type Children = () => DebugProtocol.Variable[];

/** How many consumed records a scope lists (the newest ones). */
const CONSUMED_LIMIT = 1000;
/** Rows of one expansion of a long list (see pages()). */
const PAGE = 100;
/** How many values history(name) lists before summarising. */
const HISTORY_LIMIT = 10_000;


/** The type shown for a value (or frame) machin printed in this replay but may not in another (docs/value-positions.md). */
export const THIS_REPLAY_ONLY = 'this replay only';
export class VariableStore {
  private handles = new Handles<Children>();
  /** variablesReference of a "Watched variables" scope → its thread, for data breakpoints. */
  readonly watchedScopes = new Map<number, number>();
  /** variablesReference of a "Watched variables" scope → its frame's function (source level), whose variable a data breakpoint set there watches. */
  readonly watchedFunctions = new Map<number, string>();

  constructor(private readonly runtime: ReplayRuntime) {}

  reset(): void {
    this.handles.reset();
    this.watchedScopes.clear();
    this.watchedFunctions.clear();
  }

  variables(ref: number): DebugProtocol.Variable[] {
    const make = this.handles.get(ref);
    return make ? make() : [];
  }

  private ref(make: Children): number {
    return this.handles.create(make);
  }

  /** A DecodedValue as a variable whose children expand (a long list in pages, see pages()). */
  decoded(name: string, v: DecodedValue, evaluateName?: string): DebugProtocol.Variable {
    const kids = v.children;
    const more = v.more;
    let make: Children | undefined;
    if (more) make = () => this.pages(more.count, (from, to) => more.page(from, to).map((c) => this.decoded(c.name, c.value)));
    else if (kids && kids.length) make = () => kids.map((c) => this.decoded(c.name, c.value));
    return { name, value: v.text, type: v.type, evaluateName, variablesReference: make ? this.ref(make) : 0 };
  }

  /**
   * `count` items as at most PAGE rows: the items themselves, or ranges (`[0 … 9999]`) that
   * expand into smaller ranges, so that a list of millions opens in a few steps of PAGE rows.
   */
  private pages(count: number, items: (from: number, to: number) => DebugProtocol.Variable[], from = 0, to = count): DebugProtocol.Variable[] {
    if (to - from <= PAGE) return items(from, to);
    let size = PAGE;
    while (size * PAGE < to - from) size *= PAGE;
    const out: DebugProtocol.Variable[] = [];
    for (let a = from; a < to; a += size) {
      const b = Math.min(to, a + size);
      out.push({ name: `[${a} … ${b - 1}]`, value: `${b - a} of ${count}`, variablesReference: this.ref(() => this.pages(count, items, a, b)) });
    }
    return out;
  }

  private plain(name: string, value: string | number, type?: string, evaluateName?: string): DebugProtocol.Variable {
    return { name, value: String(value), type, evaluateName, variablesReference: 0 };
  }

  /**
   * The scopes of frame `frame` of thread t: the program's values first (VS Code expands the first
   * scope; at source level that frame's locals as of its statement), then the record the cursor is
   * on, what the thread consumed, and the run (collapsed).
   */
  scopes(t: number, frame = 0): DebugProtocol.Scope[] {
    const rt = this.runtime;
    const rec = rt.recording;
    const tl = rt.timeline;
    // The adapter's one narrowing of the recording to its format: a capsule's request and outcome.
    const capsule = rec.format === 'tcap' ? rec : null;
    const scopes: DebugProtocol.Scope[] = [];
    const r = rt.currentRecordOf(t);
    const fn = rt.values.frameFunction(t, frame);
    // A frame past the program's (the trace record's) shows the innermost program frame's values.
    if (fn === null && frame > 0) return this.scopes(t, 0);
    // At source level a frame in another function than the goroutine's own says which: `goroutine 0 main · dig`.
    const inner = fn !== null && fn !== tl.threads[t]?.label ? ` · ${fn}` : '';
    const who = `${tl.units.thread} ${tl.threads[t] ? tl.nameOf(t) : t}${inner}`;
    const ref = this.ref(() => this.programValues(t, frame));
    if (rec.histories) this.watchedScopes.set(ref, t);
    if (rec.histories && fn) this.watchedFunctions.set(ref, fn);
    scopes.push({ name: `Program (${who})`, variablesReference: ref, expensive: false, presentationHint: 'locals' });
    scopes.push({ name: r >= 0 ? 'Record' : 'Next record', variablesReference: this.ref(() => this.recordVariables(r >= 0 ? r : rt.threads.firstRecord(t))), expensive: false });
    scopes.push({ name: tl.traits.takenScope, variablesReference: this.ref(() => this.consumed(t)), expensive: false });
    if (capsule) {
      scopes.push({ name: 'Request', variablesReference: this.ref(() => this.request(capsule)), expensive: false });
      scopes.push({ name: 'Outcome', variablesReference: this.ref(() => this.outcome(capsule)), expensive: false });
    }
    scopes.push({ name: 'Run', variablesReference: this.ref(() => this.run()), expensive: false });
    return scopes;
  }

  /**
   * The program's values on thread t as of the cursor: the watched variables that have one, then
   * one line naming those that never got one from the toolchain, and why (not each on its own).
   */
  programValues(t: number, frame = 0): DebugProtocol.Variable[] {
    const rec = this.runtime.recording;
    const out = this.watchedVariables(t, frame);
    const h = rec.histories;
    if (!h) {
      out.push(this.plain('(no values)', rec.timeline.traits.noValues, 'note'));
      return out;
    }
    if (rec.timeline.traits.statements === true) {
      const none = this.namesOf(t, frame).filter((n) => h.count(n) === 0);
      if (none.length) {
        const shown = none.slice(0, 8).join(', ') + (none.length > 8 ? `, and ${none.length - 8} more` : '');
        // The note names its variables (in parentheses: a note, not a variable); machin's --print
        // probes scalars and strings only (parameters and select-bound names are copied by the
        // instrumented replay).
        out.push(this.plain(`(no value: ${shown})`, 'machin --print prints only scalars and strings (nothing for a slice, map, struct or channel), and none for a name not assigned yet', 'note'));
      }
    }
    if (out.length === 0) out.push(this.plain('(no values yet)', 'nothing assigned on this thread so far', 'note'));
    return out;
  }

  recordVariables(r: number): DebugProtocol.Variable[] {
    if (r < 0) return [];
    const rt = this.runtime;
    const tl = rt.timeline;
    const view = rt.recording.describe(r);
    const out: DebugProtocol.Variable[] = [
      this.plain('summary', view.summary, 'text', 'summary'),
      this.plain('kind', view.kind, 'kind', 'kind'),
      this.plain(tl.units.thread, tl.label(view.thread), 'thread', 'thread'),
      // Numbers as the Call Stack, the status bar and the timeline say them: 0-based, "n/total".
      this.plain(tl.units.step, view.step >= 0 ? `${view.step}/${tl.stepCount}` : `not a ${tl.units.stepLong} (I/O)`, 'number', 'op'),
      this.plain('position', `${view.position} (${tl.units.steps} done)`, 'number', 'position'),
      this.plain('line', view.line, 'number', 'line'),
      this.plain('record', `${r}/${tl.recordCount}`, 'number', 'record'),
    ];
    const value = this.decoded('value', view.value, 'value');
    out.push(value);
    return out;
  }

  /** The watched names frame `frame` of thread t shows (statement-place.ts: one rule for every client). */
  private namesOf(t: number, frame: number): readonly string[] {
    return frameNames(this.runtime, t, frame);
  }

  watchedVariables(t: number, frame = 0): DebugProtocol.Variable[] {
    const rt = this.runtime;
    const h = rt.recording.histories;
    if (!h) return [];
    const out: DebugProtocol.Variable[] = [];
    // In the frame's order of names (a Map keeps it).
    for (const [name, e] of rt.values.entriesInFrame(t, frame, this.namesOf(t, frame))) {
      // A value machin may not print in another replay: the value text stays the value, the type says so.
      const type = e.thisReplayOnly ? THIS_REPLAY_ONLY : 'watched';
      out.push({ ...this.plain(name, e.value, type, name), presentationHint: { attributes: ['readOnly'] } });
    }
    return out;
  }

  private consumed(t: number): DebugProtocol.Variable[] {
    const rt = this.runtime;
    const tl = rt.timeline;
    const idx = rt.threads;
    const last = rt.currentRecordOf(t);
    if (last < 0) return [];
    // Where every record is a step (a capsule), everything the thread did; else what it read (its I/O).
    const all = tl.traits.otherRecord === null;
    const picked: number[] = [];
    let total = 0;
    for (let i = idx.lastIndexAtOrBefore(t, last); i >= idx.start[t]; i--) {
      const r = idx.records[i];
      if (!all && tl.stepOf(r) >= 0) continue;
      total++;
      if (picked.length < CONSUMED_LIMIT) picked.push(r);
      else if (!all) break;
    }
    picked.reverse();
    const out = picked.map((r) => {
      const view = rt.recording.describe(r);
      return this.decoded(`line ${view.line}`, { ...view.value, text: all ? view.summary : view.value.text });
    });
    if (picked.length < total || (!all && picked.length === CONSUMED_LIMIT)) {
      out.unshift(this.plain('…', `showing the newest ${picked.length}`));
    }
    return out;
  }

  private request(c: CapsuleRecording): DebugProtocol.Variable[] {
    const q = c.request;
    const header = (h: { name: string; value: string; secret: boolean }) => this.plain(h.name, h.secret ? `${h.value} (secret handle)` : h.value, h.secret ? 'secret-handle' : 'text');
    const headers = () => this.pages(q.headerCount, (from, to) => Array.from({ length: to - from }, (_, i) => header(q.header(from + i))));
    const query = q.query.map((h) => this.plain(h.name, h.secret ? `${h.value} (secret handle)` : h.value, h.secret ? 'secret-handle' : 'text'));
    const out: DebugProtocol.Variable[] = [
      this.plain('method', q.method),
      this.plain('target', q.target),
      this.plain('version', q.version),
      { name: 'headers', value: `${q.headerCount} header${q.headerCount === 1 ? '' : 's'}`, variablesReference: q.headerCount ? this.ref(headers) : 0 },
    ];
    if (query.length) out.push({ name: 'query', value: `${query.length} argument(s)`, variablesReference: this.ref(() => query) });
    out.push(this.plain('body', q.body.length ? new TextDecoder().decode(q.body) : '(empty)', 'text'));
    if (q.problem) out.push(this.plain('problem', q.problem));
    return out;
  }

  private outcome(c: CapsuleRecording): DebugProtocol.Variable[] {
    const h = c.header;
    const out = [this.plain('status', h.status.toString(), 'number'), this.plain('panicked', String(c.panicked)), this.plain('sampled', String(c.sampled))];
    if (c.panic) out.push(this.plain('panic', c.panic.message));
    return out;
  }

  private run(): DebugProtocol.Variable[] {
    const rt = this.runtime;
    const rec = rt.recording;
    const tl = rt.timeline;
    const unit = tl.units.steps;
    const out: DebugProtocol.Variable[] = [
      this.plain('file', tl.file),
      this.plain('position', `${rt.position} of ${tl.stepCount} ${unit} done`),
    ];
    for (const f of tl.facts) out.push(this.plain(f.label, f.value));
    out.push(this.plain('records', tl.recordCount), this.plain(unit, tl.stepCount), this.plain('threads', tl.threads.length));
    out.push(this.plain('verify', rec.verify ? divergenceText(rec.verify) : tl.traits.endRecorded ? 'n/a (capsule)' : 'not run'));
    if (rec.panic) {
      const p = rec.panic;
      out.push({
        name: 'panic',
        value: p.message,
        variablesReference: this.ref(() => [
          this.plain('message', p.message),
          this.plain(tl.units.thread, tl.label(p.thread)),
          this.plain('after', `${p.position} of ${tl.stepCount} ${unit}`),
          this.plain('source', p.source),
          this.plain('causal chain', `${p.causalChain.length} ${unit}`),
        ]),
      });
    } else out.push(this.plain('panic', tl.traits.endRecorded || rec.verify ? 'none' : 'unknown (machin did not run)'));
    if (rec.bestEffort) out.push(this.plain('best-effort', 'yes: the program uses FFI; a replay may diverge from the recorded run'));
    if (rec.warnings.length) {
      const w = rec.warnings.map((x, i) => this.plain(String(i + 1), x.line ? `line ${x.line}: ${x.message}` : x.message));
      out.push({ name: 'warnings', value: `${w.length}`, variablesReference: this.ref(() => w) });
    }
    return out;
  }

  /**
   * `history(name)`: every value `name` took, on `thread` or every thread. At source level a
   * variable is one function's (`gather.lo`): a bare name is the frame's function's (`frameFn`),
   * else the one function that binds it; several are named, never mixed. Each row is at the op
   * the status bar shows when the value is set (`op 6`), with the storing statement.
   */
  history(name: string, thread: number | undefined, frameFn?: string | null): DebugProtocol.Variable {
    const rt = this.runtime;
    const tl = rt.timeline;
    const h = rt.recording.histories;
    const unit = tl.units.step;
    const s = readyStatements(rt.recording);
    const split = h && s ? variablesNamed(h, s, splitAsked(name).name) : null;
    let rows: Array<{ thread: number; position: number; value: string; where: string }>;
    let shownName = name;
    if (split) {
      let picked = pickVariable(split, name, frameFn);
      if ('none' in picked && frameFn) picked = pickVariable(split, name);
      if (!('variable' in picked)) {
        const list = 'ambiguous' in picked ? picked.ambiguous : picked.none;
        const value = list.length
          ? `${'ambiguous' in picked ? `\`${name}\` is a variable of ${list.length} functions` : `no \`${name}\``}: watch one of ${list.map((v) => `history(${v.key}) (${v.stores.length})`).join(', ')}`
          : `no values of \`${name}\``;
        return { name: `history(${name})`, value, variablesReference: 0 };
      }
      shownName = picked.variable.key;
      rows = picked.variable.stores
        .filter((e) => thread === undefined || e.thread === thread)
        .map((e) => ({ thread: e.thread, position: e.position, value: e.value, where: e.line ? ` · line ${e.line}:${e.column}` : '' }));
    } else {
      rows = (h ? h.entries(name) : []).filter((e) => thread === undefined || e.thread === thread).map((e) => ({ thread: e.thread, position: e.position, value: e.value, where: '' }));
    }
    const shown = rows.slice(0, HISTORY_LIMIT);
    return {
      name: `history(${shownName})`,
      value: `${rows.length} value${rows.length === 1 ? '' : 's'}${rows.length ? `: ${shown.slice(0, 8).map((e) => e.value).join(', ')}${rows.length > 8 ? ', …' : ''}` : ''}`,
      variablesReference: rows.length
        ? this.ref(() => shown.map((e, i) => this.plain(`[${i}] ${stepAtPosition(e.position, unit)} · ${tl.label(e.thread)}${e.where}`, e.value)))
        : 0,
    };
  }
}
