// What a name means in a condition, a log message or the debug console, for one record:
// 1. record fields: kind, thread (also goroutine / task), label, op, record, line, position,
//    summary, value; `record.X` forces this reading;
// 2. watched variables of the record's thread as of the position the record is done at;
// 3. the decoded value's named parts (`status`, `key`, ...), as shown under "Record".
// Each name is looked up once per record (`at` starts afresh): a record's view can be megabytes of
// text (a 4 MB effect's data as hex), and a condition of 195 terms named it 195 times (issue 31, 4).
import type { Recording, DecodedValue, RecordView } from '../replay-engine/model/recording';
import type { Scope, Value } from './expression';

export const RECORD_FIELDS = ['kind', 'thread', 'goroutine', 'task', 'label', 'op', 'record', 'line', 'position', 'summary', 'value'];

export class RecordScope implements Scope {
  private record = -1;
  private position = 0;
  private thread = -1;
  /** The record's view and the names looked up, for the record `at` points to. */
  private view: RecordView | null = null;
  private readonly known = new Map<string, Value>();

  /** `values`: how a watched variable is read (the runtime's, as of the cursor's statement); default as of the position. */
  constructor(
    private readonly recording: Recording,
    private readonly values?: (name: string, thread: number) => string | undefined,
  ) {}

  /** Point the scope at record r as of position p on thread t (t defaults to the record's thread). */
  at(record: number, position: number, thread = -1): this {
    this.record = record;
    this.position = position;
    this.thread = thread >= 0 ? thread : record >= 0 ? this.recording.timeline.thread[record] : -1;
    this.view = null;
    this.known.clear();
    return this;
  }

  lookup(name: string): Value {
    if (this.known.has(name)) return this.known.get(name);
    const v = this.find(name);
    this.known.set(name, v);
    return v;
  }

  private find(name: string): Value {
    const forced = name.startsWith('record.') ? name.slice(7) : undefined;
    const field = this.field(forced ?? name);
    if (field !== undefined) return field;
    if (forced === undefined) {
      const v = this.variable(name);
      if (v !== undefined) return v;
    }
    return this.decodedPart(forced ?? name);
  }

  variable(name: string): string | undefined {
    const h = this.recording.histories;
    if (!h || this.thread < 0) return undefined;
    return this.values ? this.values(name, this.thread) : h.valueAt(name, this.thread, this.position);
  }

  private field(name: string): Value {
    const tl = this.recording.timeline;
    const r = this.record;
    switch (name) {
      case 'thread':
      case 'goroutine':
      case 'task':
        return this.thread >= 0 ? tl.threads[this.thread].id : undefined;
      case 'label':
        return this.thread >= 0 ? tl.threads[this.thread].label : undefined;
      case 'position':
        return this.position;
    }
    if (r < 0) return undefined;
    switch (name) {
      case 'kind': return tl.kindName(r);
      case 'op': return tl.stepOf(r);
      case 'record': return r;
      case 'line': return tl.lineOf(r);
      case 'summary': return this.described().summary;
      case 'value': return this.described().value.text;
    }
    return undefined;
  }

  private decodedPart(name: string): Value {
    if (this.record < 0) return undefined;
    const found = findChild(this.described().value, name);
    return found?.text;
  }

  private described(): RecordView {
    return (this.view ??= this.recording.describe(this.record));
  }
}

function findChild(v: DecodedValue, name: string): DecodedValue | undefined {
  for (const c of v.children ?? []) if (c.name === name) return c.value;
  return undefined;
}
