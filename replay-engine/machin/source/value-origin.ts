// Where did this value come from? (issue 30, point 3; docs/source-level.md "Where a value came
// from"). From a variable's value at a statement: the statement that stored it in its frame; when
// that statement took the value from a receive, the send that put it on the channel, in the
// goroutine that sent it; when it copied another variable or a parameter, that one's origin; and
// on, until the chain leaves what the recording knows (an I/O read: the record; a value computed
// from several: their names; a constant).
//
// Send/receive matching: machin 0.137.0's channels are unbounded FIFO queues (sends never block),
// so the k-th receive on a channel takes the k-th send on it. Which channel an op is on comes from
// the statement that performed it (performerOfStep) and the program text: a channel variable is
// followed through the parameters it was passed as (`go worker(ch)`, `f(ch)`) to the function
// and goroutine that made it. Not matched (said as the chain's end): a channel the text does not
// fix (an element of a slice or map, a field, a call's result), a `select` on it, a receive after
// close (the zero value).
import { readFileSync } from 'node:fs';
import type { HistoryEntry, Recording } from '../../model/recording';
import type { SourceStatements, StatementLocation } from '../../model/source-level';
import { IO_BUILTIN_RECORDS, SELECT_IO_RECORDS } from './io-builtins';
import { lexMfl, positionOf, type MflToken } from './mfl-lexer';
import { parseStatements, type MflStatementModel } from './statement-model';

export type OriginVia = 'store' | 'copy' | 'receive' | 'send' | 'call';

/** One link of the chain: a statement of a goroutine and the value it moved. */
export interface OriginStep {
  via: OriginVia;
  goroutine: string;
  thread: number;
  event: number;
  seq: number;
  line: number;
  column: number;
  function: string;
  /** Ops done when the statement ran. */
  position: number;
  /** The statement's text in the program. */
  text: string;
  /** The variable the value was in at this link. */
  variable: string;
  value: string | null;
  /** The statement, or the value, ran in this replay only. */
  thisReplayOnly: boolean;
}

export type OriginEndKind = 'io' | 'constant' | 'computed' | 'call-result' | 'unmatched' | 'not-recorded';

export interface OriginEnd {
  kind: OriginEndKind;
  /** One line for the user: where the chain leaves what the recording knows, and why. */
  message: string;
  /** For `io`: the trace record the value was read from (its 0-based index and 1-based line). */
  record?: number;
  recordLine?: number;
  /** For `computed`: the names it was computed from (each can be asked about in turn). */
  from?: string[];
}

export interface OriginChain {
  variable: string;
  goroutine: string;
  value: string;
  steps: OriginStep[];
  end: OriginEnd;
}

export class OriginError extends Error {}

/** How far a chain is followed (a value passed around a loop of goroutines ends here). */
const MAX_STEPS = 64;

interface ChannelOp {
  kind: 'send' | 'receive' | 'select' | 'close' | 'other';
  /** The channel's name in the statement's frame (send, receive, close). */
  channel?: string;
}

/** The program's text and statement model, read once per file. */
class ProgramText {
  readonly model: MflStatementModel;
  private readonly byPlace = new Map<string, { start: number; end: number; spawns: boolean }>();
  private readonly tokensOf = new Map<string, MflToken[]>();

  constructor(readonly src: string) {
    this.model = parseStatements(src);
    for (const s of this.model.statements) {
      const at = positionOf(src, s.start);
      this.byPlace.set(`${at.line}:${at.column}`, { start: s.start, end: s.end, spawns: s.spawns === true });
    }
  }

  private place(loc: StatementLocation) {
    return this.byPlace.get(`${loc.line}:${loc.column}`);
  }

  text(loc: StatementLocation): string {
    const p = this.place(loc);
    return p ? this.src.slice(p.start, p.end).replace(/\s+/g, ' ').trim() : '';
  }

  spawns(loc: StatementLocation): boolean {
    return this.place(loc)?.spawns ?? false;
  }

  tokens(loc: StatementLocation): MflToken[] {
    const key = `${loc.line}:${loc.column}`;
    let t = this.tokensOf.get(key);
    if (!t) {
      const p = this.place(loc);
      t = p ? lexMfl(this.src.slice(p.start, p.end)).filter((k) => k.kind !== 'eof') : [];
      this.tokensOf.set(key, t);
    }
    return t;
  }

  params(fn: string): string[] | null {
    return this.model.functions.find((f) => f.name === fn)?.params ?? null;
  }

  parentOf(fn: string): string | null {
    const f = this.model.functions.find((x) => x.name === fn);
    return f && f.parent !== null ? this.model.functions[f.parent].name : null;
  }
}

const programs = new Map<string, ProgramText>();

function programText(file: string): ProgramText {
  let p = programs.get(file);
  if (!p) {
    let src: string;
    try {
      src = readFileSync(file, 'utf8');
    } catch (e) {
      throw new OriginError(`${file}: cannot read the program (${(e as Error).message})`);
    }
    p = new ProgramText(src);
    programs.set(file, p);
  }
  return p;
}

/** What a statement does to a channel, from its tokens. */
function channelOp(tokens: MflToken[]): ChannelOp {
  if (tokens[0]?.text === 'select') return { kind: 'select' };
  if (tokens[0]?.text === 'close' && tokens[1]?.text === '(' && tokens[2]?.kind === 'ident' && tokens[3]?.text === ')') return { kind: 'close', channel: tokens[2].text };
  // `ch <- v`
  if (tokens[0]?.kind === 'ident' && tokens[1]?.text === '<-') return { kind: 'send', channel: tokens[0].text };
  // `x := <-ch`, `x = <-ch`, `<-ch`, `var x = <-ch`
  const arrow = tokens.findIndex((t) => t.text === '<-');
  if (arrow >= 0 && tokens[arrow + 1]?.kind === 'ident' && (arrow === 0 || [':=', '='].includes(tokens[arrow - 1].text))) {
    return { kind: 'receive', channel: tokens[arrow + 1].text };
  }
  // `for v := range ch {`
  const range = tokens.findIndex((t) => t.text === 'range');
  if (tokens[0]?.text === 'for' && range >= 0 && tokens[range + 1]?.kind === 'ident') return { kind: 'receive', channel: tokens[range + 1].text };
  if (arrow >= 0) return { kind: 'receive' };
  return { kind: 'other' };
}

/** The right-hand side of `name := ...` / `name = ...` / `var name = ...` / `for name := range ...`, or null. */
function assignedFrom(tokens: MflToken[], name: string): MflToken[] | null {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].kind !== 'ident' || tokens[i].text !== name) continue;
    // the name may be one of several on the left (`a, b := ...`): take what follows the operator
    let j = i + 1;
    while (tokens[j]?.text === ',' && tokens[j + 1]?.kind === 'ident') j += 2;
    if (tokens[j]?.text === ':=' || tokens[j]?.text === '=') {
      const rest = tokens.slice(j + 1);
      const end = rest.findIndex((t) => t.text === '{');
      return end >= 0 && tokens[0]?.text === 'for' ? rest.slice(0, end) : rest;
    }
  }
  return null;
}

/** The arguments of the first call of `fn` in a statement (`go fn(a, b)`, `x := fn(a)`), each as its tokens. */
function callArguments(tokens: MflToken[], fn: string): MflToken[][] | null {
  const leaf = fn.includes('.') ? null : fn;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const named = leaf !== null && tokens[i].text === leaf;
    // a function literal started by `go func(...) {...}(args)`: the call's arguments follow the body's `}`
    const literal = leaf === null && tokens[i].text === '}' && tokens[i + 1]?.text === '(';
    if (!(named || literal) || tokens[i + 1]?.text !== '(') continue;
    const args: MflToken[][] = [[]];
    let depth = 0;
    for (let j = i + 2; j < tokens.length; j++) {
      const t = tokens[j];
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (depth === 0) return args[0].length === 0 && args.length === 1 ? [] : args;
        depth--;
      }
      if (t.text === ',' && depth === 0) args.push([]);
      else args[args.length - 1].push(t);
    }
    return null;
  }
  return null;
}

export class ValueOrigins {
  private readonly program: ProgramText;
  /** By thread: its `go` statements' events, in the order it ran them (child j+1 is `id.(j+1)`). */
  private readonly spawns = new Map<number, number[]>();

  constructor(
    private readonly recording: Recording,
    private readonly s: SourceStatements,
  ) {
    if (!recording.histories?.entryAtEvent) throw new OriginError('the values carry no statements (machin has not replayed the program against its instrumented copy)');
    this.program = programText(s.file);
  }

  /**
   * The chain of `name`'s value in thread t as of its statement event `event` (the value it has
   * when it stands there; `afterOps`: the cursor's position, for a value a receive stored once its op completed).
   */
  chain(name: string, t: number, event: number, afterOps?: number): OriginChain {
    const tl = this.recording.timeline;
    const goroutine = tl.threads[t]?.id ?? String(t);
    if (event < 0 || event >= this.s.eventsOf(t)) throw new OriginError(`goroutine ${goroutine} has no statement ${event} (it ran ${this.s.eventsOf(t)})`);
    const first = this.entry(name, t, event, afterOps);
    if (!first) throw new OriginError(`${name} has no value in goroutine ${goroutine} at line ${this.s.location(t, event).line} (${this.s.location(t, event).function}): not stored yet in this frame, or not a scalar machin prints`);
    const steps: OriginStep[] = [];
    let cur = { name, t, entry: first };
    for (let n = 0; n < MAX_STEPS; n++) {
      const next = this.follow(cur.name, cur.t, cur.entry, steps);
      if ('end' in next) return { variable: name, goroutine, value: first.value, steps, end: next.end };
      cur = next;
    }
    return { variable: name, goroutine, value: first.value, steps, end: { kind: 'unmatched', message: `the chain goes on past ${MAX_STEPS} links (a value passed round a loop): ask again from its last link` } };
  }

  private entry(name: string, t: number, event: number, afterOps?: number): HistoryEntry | undefined {
    const anchor = this.s.positionOf(t, event);
    return this.recording.histories!.entryAtEvent!(name, t, event, anchor, afterOps ?? anchor, (stored) => this.s.sameFrame(t, name, stored, event));
  }

  private step(via: OriginVia, t: number, event: number, variable: string, value: string | null, valueMark = false): OriginStep {
    const s = this.s;
    const loc = s.location(t, event);
    return {
      via,
      goroutine: this.recording.timeline.threads[t].id,
      thread: t,
      event,
      seq: s.seqOf(t, event),
      line: loc.line,
      column: loc.column,
      function: loc.function,
      position: s.positionOf(t, event),
      text: this.program.text(loc),
      variable,
      value,
      thisReplayOnly: !s.isSure(t, event) || valueMark,
    };
  }

  /** One link from a value's entry: pushes its steps, then the next value to follow or the end. */
  private follow(name: string, t: number, entry: HistoryEntry, steps: OriginStep[]): { name: string; t: number; entry: HistoryEntry } | { end: OriginEnd } {
    const s = this.s;
    const mark = entry.thisReplayOnly === true;
    if (entry.event === undefined) return { end: { kind: 'not-recorded', message: 'the value carries no statement' } };
    if (entry.event < 0) return this.fromParameter(name, t, 0, -1, entry.value, mark, steps);
    const stored = s.storedBy(t, entry.event);
    const loc = s.location(t, stored);
    if (loc.kind === 'entry') return this.fromParameter(name, t, stored, stored, entry.value, mark, steps);
    const tokens = this.program.tokens(loc);
    const rhs = assignedFrom(tokens, name);
    if (stored !== entry.event) {
      steps.push(this.step('store', t, stored, name, entry.value, mark));
      return { end: { kind: 'call-result', message: `returned by the call on line ${loc.line}: step into it to see how it was computed` } };
    }
    const op = channelOp(tokens);
    if (op.kind === 'receive' && rhs && (rhs[0]?.text === '<-' || tokens[0]?.text === 'for')) {
      steps.push(this.step('receive', t, stored, name, entry.value, mark));
      return this.fromSend(t, stored, op, steps);
    }
    steps.push(this.step(rhs && rhs.length === 1 && rhs[0].kind === 'ident' ? 'copy' : 'store', t, stored, name, entry.value, mark));
    return this.fromExpression(rhs ?? [], t, stored, loc);
  }

  /** Where an expression's value came from: one variable (follow it), an I/O read, a constant, or several names. */
  private fromExpression(rhs: MflToken[], t: number, event: number, loc: StatementLocation): { name: string; t: number; entry: HistoryEntry } | { end: OriginEnd } {
    const io = rhs.find((k, i) => k.kind === 'ident' && IO_BUILTIN_RECORDS.has(k.text) && rhs[i + 1]?.text === '(');
    if (io) return { end: this.ioEnd(t, event, io.text) };
    if (rhs.length === 1 && rhs[0].kind === 'ident') {
      const e = this.entry(rhs[0].text, t, event);
      if (e) return { name: rhs[0].text, t, entry: e };
      return { end: { kind: 'not-recorded', message: `${rhs[0].text} has no value machin printed before line ${loc.line} (a global, or a value machin does not probe)` } };
    }
    const names = [...new Set(rhs.filter((k, i) => k.kind === 'ident' && rhs[i + 1]?.text !== '(' && rhs[i - 1]?.text !== '.').map((k) => k.text))];
    if (names.length === 0) return { end: { kind: 'constant', message: `a constant in the program (line ${loc.line})` } };
    return { end: { kind: 'computed', message: `computed on line ${loc.line} from ${names.join(', ')}: ask where each came from`, from: names } };
  }

  /** A parameter: the call that passed it (a caller's statement, or the parent's `go`), then the argument's origin. */
  private fromParameter(name: string, t: number, fromEvent: number, entryEvent: number, value: string, mark: boolean, steps: OriginStep[]): { name: string; t: number; entry: HistoryEntry } | { end: OriginEnd } {
    const s = this.s;
    const fn = entryEvent >= 0 ? s.location(t, entryEvent).function : s.eventsOf(t) > 0 ? s.location(t, 0).function : null;
    const params = fn ? this.program.params(fn) : null;
    const j = params ? params.indexOf(name) : -1;
    if (!fn || j < 0) return { end: { kind: 'not-recorded', message: `${name} was set before the first statement machin shows in goroutine ${this.recording.timeline.threads[t].id}` } };
    const caller = this.callSite(t, fromEvent);
    if (!caller) return { end: { kind: 'not-recorded', message: `${name} is a parameter of ${fn}; the call that passed it is not in the recording (its goroutine's start is not known)` } };
    steps.push(this.step('call', caller.t, caller.event, name, value, mark));
    const args = callArguments(this.program.tokens(s.location(caller.t, caller.event)), fn);
    const arg = args?.[j];
    if (!arg) return { end: { kind: 'unmatched', message: `the call on line ${s.location(caller.t, caller.event).line} does not say ${fn}'s argument ${j + 1} in its text` } };
    return this.fromExpression(arg, caller.t, caller.event, s.location(caller.t, caller.event));
  }

  /** The statement that called the frame event `at` of thread t is in: its caller's call, or for the goroutine's first frame the parent's `go`. */
  private callSite(t: number, at: number): { t: number; event: number } | null {
    const s = this.s;
    const stack = at >= 0 && at < s.eventsOf(t) ? s.stack(t, at) : [];
    if (stack.length > 1) return { t, event: stack[1].event };
    const tl = this.recording.timeline;
    const id = tl.threads[t].id;
    const dot = id.lastIndexOf('.');
    if (dot < 0) return null;
    const parent = tl.threadIndex(id.slice(0, dot));
    const k = Number(id.slice(dot + 1)) - 1;
    if (parent < 0) return null;
    const go = this.spawnsOf(parent)[k];
    return go === undefined ? null : { t: parent, event: go };
  }

  private spawnsOf(t: number): number[] {
    let list = this.spawns.get(t);
    if (!list) {
      list = [];
      for (let e = 0; e < this.s.eventsOf(t); e++) if (this.program.spawns(this.s.location(t, e))) list.push(e);
      this.spawns.set(t, list);
    }
    return list;
  }

  /**
   * Which channel `name` is in frame event `at` of thread t: followed through parameters to the
   * frame that made it. Its key: `goroutine:function:name` of that frame (null: the text does not fix it).
   */
  private channelKey(name: string, t: number, at: number, depth = 0): string | null {
    if (depth > 32) return null;
    const s = this.s;
    const fn = s.location(t, at).function;
    const params = this.program.params(fn) ?? [];
    const j = params.indexOf(name);
    if (j >= 0) {
      const caller = this.callSite(t, at);
      if (!caller) return null;
      const arg = callArguments(this.program.tokens(s.location(caller.t, caller.event)), fn)?.[j];
      if (!arg || arg.length !== 1 || arg[0].kind !== 'ident') return null;
      return this.channelKey(arg[0].text, caller.t, caller.event, depth + 1);
    }
    const locals = s.localsOf(fn);
    const parent = this.program.parentOf(fn);
    // A function literal's captured variable is its enclosing function's (in the goroutine that ran that one).
    if (parent && locals && !this.ownOf(fn, name)) {
      const caller = this.callSite(t, at);
      return caller ? this.channelKey(name, caller.t, caller.event, depth + 1) : null;
    }
    return `${this.recording.timeline.threads[t].id}:${fn}:${name}`;
  }

  /** Whether a function literal binds `name` itself (a parameter or a `:=` in its body). */
  private ownOf(fn: string, name: string): boolean {
    const f = this.program.model.functions.find((x) => x.name === fn);
    if (!f) return true;
    if (f.params.includes(name)) return true;
    const body = lexMfl(this.program.src.slice(f.bodyOpen, f.bodyClose));
    return body.some((k, i) => k.text === name && body[i + 1]?.text === ':=');
  }

  /** The receive of event `recv` of thread t took the k-th value sent on its channel: the k-th send. */
  private fromSend(t: number, recv: number, op: ChannelOp, steps: OriginStep[]): { name: string; t: number; entry: HistoryEntry } | { end: OriginEnd } {
    const s = this.s;
    const tl = this.recording.timeline;
    if (!op.channel) return { end: { kind: 'unmatched', message: 'received from a channel the text does not name (an element, a field or a call): not matched to its send' } };
    const key = this.channelKey(op.channel, t, recv);
    if (!key) return { end: { kind: 'unmatched', message: `received from ${op.channel}, which the program text does not fix to one channel: not matched to its send` } };
    // The op this receive performed: thread t's first op at or after the statement's position whose performer it is.
    let recvStep = -1;
    for (let k = s.positionOf(t, recv); k < tl.stepCount; k++) {
      if (tl.threadOfStep(k) !== t) continue;
      const p = s.performerOfStep(k);
      if (p && p.thread === t && p.event === recv) recvStep = k;
      break;
    }
    if (recvStep < 0) return { end: { kind: 'not-recorded', message: `the receive on line ${s.location(t, recv).line} has no op in the trace (it never completed)` } };
    const sends: Array<{ t: number; event: number }> = [];
    let before = 0;
    let selects = 0;
    let closedAt = -1;
    const ops = new Map<string, { op: ChannelOp; key: string | null }>();
    for (let k = 0; k < recvStep; k++) {
      const p = s.performerOfStep(k);
      if (!p) continue;
      const loc = s.location(p.thread, p.event);
      const o = channelOp(this.program.tokens(loc));
      if (o.kind === 'other') continue;
      if (o.kind === 'select') {
        // A select that names this channel in a case may have sent or received on it.
        const toks = this.program.tokens(loc);
        const named = toks.filter((x, i) => x.kind === 'ident' && (toks[i + 1]?.text === '<-' || toks[i - 1]?.text === '<-')).map((x) => x.text);
        if (named.some((c) => this.channelKey(c, p.thread, p.event) === key)) selects++;
        continue;
      }
      if (!o.channel) continue;
      // A channel's key depends on the frame (parameters), so it is looked up per frame's statement.
      const cacheKey = `${p.thread}:${s.depth(p.thread, p.event) === 0 ? 0 : s.stack(p.thread, p.event)[1].event}:${loc.line}:${loc.column}`;
      let known = ops.get(cacheKey);
      if (!known) ops.set(cacheKey, (known = { op: o, key: this.channelKey(o.channel, p.thread, p.event) }));
      if (known.key !== key) continue;
      if (o.kind === 'send') sends.push({ t: p.thread, event: p.event });
      else if (o.kind === 'receive') before++;
      else if (o.kind === 'close' && closedAt < 0) closedAt = sends.length;
    }
    if (selects > 0) return { end: { kind: 'unmatched', message: `${selects} select op(s) with a case on ${op.channel} ran before this receive: which case a select took is not followed, so the send is not matched` } };
    const from = sends[before];
    if (!from) {
      if (closedAt >= 0) return { end: { kind: 'constant', message: `the zero value: ${op.channel} was closed and empty when line ${s.location(t, recv).line} received` } };
      return { end: { kind: 'unmatched', message: `no send on ${op.channel} matches this receive (receive ${before + 1} on it, ${sends.length} send(s) before it)` } };
    }
    const sendTokens = this.program.tokens(s.location(from.t, from.event));
    const arrow = sendTokens.findIndex((k) => k.text === '<-');
    const expr = sendTokens.slice(arrow + 1);
    const single = expr.length === 1 && expr[0].kind === 'ident' ? expr[0].text : null;
    const sentValue = single ? this.entry(single, from.t, from.event) : undefined;
    steps.push(this.step('send', from.t, from.event, single ?? expr.map((k) => k.text).join(' '), sentValue?.value ?? null, sentValue?.thisReplayOnly === true));
    return this.fromExpression(expr, from.t, from.event, s.location(from.t, from.event));
  }

  /** An I/O read: the chain ends at the trace record it read (the goroutine's I/O queue, counted by its statements' reads). */
  private ioEnd(t: number, event: number, builtin: string): OriginEnd {
    const s = this.s;
    const tl = this.recording.timeline;
    // How many I/O records thread t's statements consumed before this one (each read one; a select one).
    let before = 0;
    for (let e = 0; e < event; e++) {
      const toks = this.program.tokens(s.location(t, e));
      if (toks[0]?.text === 'select') before += SELECT_IO_RECORDS;
      for (let i = 0; i < toks.length; i++) if (toks[i].kind === 'ident' && toks[i + 1]?.text === '(') before += IO_BUILTIN_RECORDS.get(toks[i].text) ?? 0;
    }
    let seen = 0;
    for (let r = 0; r < tl.recordCount; r++) {
      if (tl.isStep(r) || tl.thread[r] !== t) continue;
      if (seen++ === before) {
        return { kind: 'io', message: `read from outside by ${builtin}() on line ${s.location(t, event).line}: the trace's I/O record on line ${tl.lineOf(r)} holds it`, record: r, recordLine: tl.lineOf(r) };
      }
    }
    return { kind: 'io', message: `read from outside by ${builtin}() on line ${s.location(t, event).line} (its I/O record is not found in the trace)` };
  }
}
