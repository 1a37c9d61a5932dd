// Each tool's outputSchema (MCP structured output): the fields an agent can rely on, typed; every
// object is loose (more fields may come, as the engine learns more), so a client that validates
// structuredContent against the schema keeps working when answers grow. Any new tool adds its own
// shape here and answers through answer.ts (structuredAnswer).
import { z } from 'zod';

const nullable = <T extends z.ZodType>(t: T) => t.nullable();
const num = z.number();
const str = z.string();

/** A page of a list: its items, and the offset of the next page (null on the last). */
const page = (item: z.ZodType) => z.looseObject({ total: num, offset: num, items: z.array(item), nextOffset: nullable(num) });

const record = z.looseObject({
  record: num, line: num, kind: str, thread: str, step: nullable(num), position: num, summary: str,
  value: z.unknown().optional(), source: z.looseObject({ path: str, line: num, name: str }).optional(),
});

/** A statement of the program (debug-adapter/statement-place.ts): 1-based, `end` just past it, `text` its first line. */
const statement = z.looseObject({
  path: str, line: num, column: num, endLine: num, endColumn: num, function: str, text: str, thisReplayOnly: z.literal(true).optional(),
});
/** A frame of a program stack: the statement it stands at (a caller's: the call it is making), with its values where asked for and which of them are this replay's only. */
const frame = statement.extend({ locals: z.record(str, str).optional(), localsThisReplayOnly: z.array(str).optional() });
/** Where a thread is in the program: null / [] without statements; `framesTotal` past the frames listed. */
const where = { location: nullable(statement), frames: z.array(frame), framesTotal: num.optional() };

const stop = z.looseObject({
  reason: str, description: str, text: str.optional(), exception: str.optional(), thread: nullable(str),
  location: nullable(statement).optional(), frames: z.array(frame).optional(), framesTotal: num.optional(),
});

const chain = z.looseObject({ to: num, length: num, offset: num, threads: z.array(z.unknown()), nextOffset: nullable(num) });

const SHAPES = {
  open_recording: {
    recording: str,
    format: str,
    threadCount: num,
    threads: page(z.unknown()),
    panicAt: nullable(z.looseObject({
      message: str, thread: str, position: num, record: num, source: str,
      statement: nullable(statement), frames: z.array(frame), framesTotal: num.optional(), statementWhy: str.optional(),
    })),
    causalChain: nullable(chain),
    variables: nullable(page(str)),
    toolchain: str,
    cursor: z.looseObject({ position: num, record: num, of: z.looseObject({ positions: num, records: num }) }),
    warnings: z.array(z.looseObject({ message: str })).optional(),
  },
  close_recording: { closed: z.boolean(), open: z.array(str) },
  get_state: {
    position: num,
    record: num,
    atStart: z.boolean(),
    atEnd: z.boolean(),
    of: z.looseObject({ positions: num, records: num }),
    lastStop: stop.optional(),
    justDone: nullable(record),
    panicked: nullable(z.boolean()),
    values: str,
    statements: str.optional(),
    threads: page(z.looseObject({ id: str, label: str, current: nullable(record), ...where, values: z.record(str, str), valuesTotal: num.optional(), thisReplayOnly: z.array(str).optional(), io: z.looseObject({ consumed: num, last: z.array(record) }) })),
  },
  move: {
    stop,
    position: num,
    record: num,
    atStart: z.boolean(),
    atEnd: z.boolean(),
    justDone: nullable(record),
    end: str.optional(),
    note: str.optional(),
  },
  variable_history: { variable: str.optional(), total: num, offset: num, entries: z.array(z.looseObject({ op: num, goroutine: str, value: str })), nextOffset: nullable(num) },
  find_value_change: { variable: str, thread: str, direction: z.enum(['backward', 'forward']), from: num, changes: num, found: z.boolean(), position: num.optional(), value: str.optional(), previous: nullable(str).optional(), why: str.optional() },
  list_records: { from: num, to: num, records: z.array(record), scannedTo: num, nextRecord: nullable(num), note: str.optional() },
  causal_chain: { to: num.optional(), length: num.optional(), offset: num.optional(), threads: z.array(z.unknown()).optional(), nextOffset: nullable(num).optional(), panic: z.null().optional(), why: str.optional() },
  compare_recordings: { divergence: z.unknown().optional() },
  test_secret: { matches: z.array(z.unknown()), handles: z.array(z.unknown()) },
} as const;

type Shapes = typeof SHAPES;

/** Each tool's schema as a loose object: the fields above, and any others an answer has. */
export const OUTPUT = Object.fromEntries(Object.entries(SHAPES).map(([k, shape]) => [k, z.looseObject(shape)])) as {
  [K in keyof Shapes]: z.ZodObject<Shapes[K], z.core.$loose>;
};
