// The tools an agent sees: names, descriptions and input schemas (zod, turned into JSON Schema by
// the SDK), each a thin call into the engine through the held recordings.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RecordingError } from '../replay-engine/model/errors';
import { answering } from './answer';
import { compareHeld, testSecret } from './capsule-tools';
import type { HeldRecordings } from './held-recordings';
import { move, MOVES } from './moves';
import { limitParam, offsetParam } from './paging';
import { listRecords } from './records';
import { registerRunQuestionTools } from './run-questions-tools';
import { stateJson } from './state';
import { chainJson, summaryJson, THREADS_SHOWN, VARIABLES_SHOWN } from './summary';
import { findChange, historyPage } from './values';

const recordingParam = z.string().min(1).describe('the handle open_recording returned (r1, ...) or the path of a recording file');
const threadParam = z.string().min(1).describe('a goroutine id (0, 0.1, ...) or a task number of a capsule; a thread label also works');
const positionParam = z.number().int().min(0).describe('cursor position: how many schedule ops (trace) or effects (capsule) have completed');
const recordParam = z.number().int().min(-1).describe('a record (0-based line among the records; -1 is the start, the record count is the end)');
const detailParam = z.boolean().optional().describe('include each record\'s decoded value tree (default false: the one-line summary only)');

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export function registerTools(server: McpServer, held: HeldRecordings, toolchain: boolean): void {
  registerRunQuestionTools(server, held);
  server.registerTool('open_recording', {
    title: 'Open a recording',
    description:
      'Open a machin trace (.mflrr) or a Tin capsule (.tcap) and summarize it: format, header facts, threads (goroutines / tasks), the panic and its causal chain, the verify verdict, the boundary and warnings, as `frozen-run inspect --json` does. ' +
      'The recording stays open under the returned handle; its cursor starts at position 0. Capsule keys come only from the server\'s environment (TIN_REPLAY_KEY) or its --key-file, never from a tool argument.',
    inputSchema: {
      path: z.string().min(1).describe('path of the recording file'),
      threads_offset: offsetParam,
      threads_limit: limitParam(THREADS_SHOWN, 1000),
      variables_offset: offsetParam.describe(`index of the first variable name to list (${VARIABLES_SHOWN} a page)`),
    },
    annotations: readOnly,
  }, answering(async (a: { path: string; threads_offset?: number; threads_limit?: number; variables_offset?: number }) =>
    summaryJson(await held.open(a.path), toolchain, { threadsOffset: a.threads_offset, threadsLimit: a.threads_limit, variablesOffset: a.variables_offset })));

  server.registerTool('close_recording', {
    title: 'Close a recording',
    description: 'Forget an open recording (its handle and cursor).',
    inputSchema: { recording: recordingParam },
    annotations: readOnly,
  }, answering((a: { recording: string }) => ({ closed: held.close(a.recording), open: held.handles })));

  server.registerTool('get_state', {
    title: 'State at a position',
    description:
      'The run as of one moment: for each goroutine or task, the record it last did, the values its variables hold then (machin value histories, or a capsule\'s effect results) and the I/O it has consumed so far. ' +
      'Without position or record: where the recording\'s cursor is (see move). Threads are paged.',
    inputSchema: {
      recording: recordingParam,
      position: positionParam.optional(),
      record: recordParam.optional(),
      thread: threadParam.optional().describe('only this goroutine or task'),
      threads_offset: offsetParam,
      threads_limit: limitParam(16, 256),
      io_limit: z.number().int().min(0).max(100).optional().describe('how many of each thread\'s latest consumed I/O records to show (default 3)'),
      variables: z.array(z.string().min(1)).max(100).optional().describe('only these variables (default: all, the most recently set first past values_limit)'),
      values_limit: z.number().int().min(0).max(1000).optional().describe('at most this many variables per thread (default 50; valuesTotal gives the count)'),
      detail: detailParam,
    },
    annotations: readOnly,
  }, answering(async (a: { recording: string; position?: number; record?: number; thread?: string; threads_offset?: number; threads_limit?: number; io_limit?: number; variables?: string[]; values_limit?: number; detail?: boolean }) =>
    stateJson(await held.get(a.recording), {
      position: a.position, record: a.record, thread: a.thread, threadsOffset: a.threads_offset,
      threadsLimit: a.threads_limit ?? 16, ioLimit: a.io_limit ?? 3, valuesLimit: a.values_limit ?? 50,
      variables: a.variables, detail: a.detail === true,
    })));

  server.registerTool('move', {
    title: 'Move the cursor',
    description:
      'Move the recording\'s cursor as a debugger does. step_in / step_back_in: the next / previous record of any thread; next / step_back: this thread\'s next / previous record; step_out / step_back_out: this thread\'s last / first record; ' +
      'continue / reverse_continue: run forward / back, stopping at the panic, a divergence, or where `until` holds; goto: a position or record; to_panic, to_start, to_end. Answers why it stopped and the record just done.',
    inputSchema: {
      recording: recordingParam,
      action: z.enum(MOVES),
      thread: threadParam.optional().describe('for next, step_back, step_out, step_back_out (default: the thread of the last stop)'),
      position: positionParam.optional().describe('for goto'),
      record: recordParam.optional().describe('for goto (exact where a position covers an op and the I/O lines after it)'),
      count: z.number().int().min(1).max(100_000).optional().describe('repeat a step this many times (default 1)'),
      until: z.object({
        breakpoint: z.string().min(1).optional().describe('stop on a record kind (sched, io, redis, http@1), `goroutine ID`, `task N` or `panic`'),
        condition: z.string().min(1).optional().describe('stop where this expression holds, e.g. `idx > 10`, `kind == "io"`, `status == 500` (record fields, variables, decoded parts)'),
        line: z.number().int().min(1).optional().describe('stop on the record on this line of the trace (or of the capsule\'s decoded document)'),
        variable: z.string().min(1).optional().describe('a data breakpoint: stop where this variable\'s value changes (both ways)'),
        thread: threadParam.optional().describe('the thread whose variable is watched (default: the thread of the last stop)'),
      }).strict().optional().describe('for continue / reverse_continue'),
    },
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  }, answering(async (a: { recording: string; action: (typeof MOVES)[number]; thread?: string; position?: number; record?: number; count?: number; until?: { breakpoint?: string; condition?: string; line?: number; variable?: string; thread?: string } }, extra) =>
    held.get(a.recording).then((h) => h.exclusive(() => move(h, a, extra?.signal)))));

  server.registerTool('variable_history', {
    title: 'Value history of a variable',
    description: 'Every value a variable took over the run, with the op (position) and the goroutine or task, as `frozen-run history --json` gives it. Paged.',
    inputSchema: { recording: recordingParam, variable: z.string().min(1), thread: threadParam.optional().describe('only this goroutine or task'), offset: offsetParam, limit: limitParam(100, 5000) },
    annotations: readOnly,
  }, answering(async (a: { recording: string; variable: string; thread?: string; offset?: number; limit?: number }) =>
    historyPage(await held.get(a.recording), a.variable, a.thread, toolchain, a.offset, a.limit ?? 100)));

  server.registerTool('find_value_change', {
    title: 'Where a value changed',
    description:
      'The data breakpoint\'s search: where a variable on a thread changed. backward: the last change at or before the position (the write that gave the value it holds there); forward: the first change after it. ' +
      'Default position: the cursor\'s. Does not move the cursor (move with goto to go there).',
    inputSchema: { recording: recordingParam, variable: z.string().min(1), thread: threadParam, direction: z.enum(['backward', 'forward']), position: positionParam.optional() },
    annotations: readOnly,
  }, answering(async (a: { recording: string; variable: string; thread: string; direction: 'backward' | 'forward'; position?: number }) =>
    findChange(await held.get(a.recording), a.variable, a.thread, a.direction, a.position, toolchain)));

  server.registerTool('list_records', {
    title: 'List records',
    description:
      'Records (trace S/I lines, capsule effects) in a range, decoded (I/O as text, RESP, HTTP, SQL keys, times), filtered by kind, thread and text. Answers at most `limit` records and where to go on (next_record).',
    inputSchema: {
      recording: recordingParam,
      from_record: z.number().int().min(0).optional().describe('first record (default 0)'),
      to_record: z.number().int().min(0).optional().describe('end of the range, exclusive (default: the end)'),
      from_position: positionParam.optional().describe('start at the first record not yet done at this position (instead of from_record)'),
      kind: z.string().min(1).optional().describe('only records of this kind (sched, io; redis@1 or redis)'),
      thread: threadParam.optional(),
      text: z.string().min(1).optional().describe('only records whose summary or value contains this text (case-insensitive)'),
      limit: limitParam(50, 1000),
      detail: detailParam,
    },
    annotations: readOnly,
  }, answering(async (a: { recording: string; from_record?: number; to_record?: number; from_position?: number; kind?: string; thread?: string; text?: string; limit?: number; detail?: boolean }) =>
    listRecords(await held.get(a.recording), {
      fromRecord: a.from_record, toRecord: a.to_record, fromPosition: a.from_position, kind: a.kind, thread: a.thread, text: a.text,
      limit: a.limit ?? 50, detail: a.detail === true,
    })));

  server.registerTool('causal_chain', {
    title: 'Causal chain',
    description: 'The goroutine or task of each step that led to the panic (or to a position), in order, paged: the causal chain of the run.',
    inputSchema: { recording: recordingParam, position: positionParam.optional().describe('the chain to this position instead of to the panic'), offset: offsetParam, limit: limitParam(200, 10_000) },
    annotations: readOnly,
  }, answering(async (a: { recording: string; position?: number; offset?: number; limit?: number }) => {
    const h = await held.get(a.recording);
    const tl = h.recording.timeline;
    if (a.position === undefined && !h.recording.panic) {
      return { panic: null, why: tl.format === 'mflrr' && !toolchain ? 'no panic is known: machin did not run (start the server with --toolchain); give a position for the chain to it' : 'no panic is known for this recording; give a position for the chain to it' };
    }
    if (a.position !== undefined && a.position > tl.stepCount) throw new RecordingError('usage', `position ${a.position} is past the end: positions are 0 to ${tl.stepCount}`);
    return chainJson(h, a.offset, a.limit ?? 200, a.position);
  }));

  server.registerTool('compare_recordings', {
    title: 'Compare two recordings',
    description: 'Two runs of the same program aligned: the first divergence (schedule, effect or I/O), the first differing values and per-thread counts, as `frozen-run compare --json` gives it.',
    inputSchema: { a: recordingParam, b: recordingParam, value_limit: limitParam(20, 200).describe('how many value differences to list (all are counted; default 20)') },
    annotations: readOnly,
  }, answering(async (a: { a: string; b: string; value_limit?: number }) => compareHeld(await held.get(a.a), await held.get(a.b), a.value_limit ?? 20)));

  server.registerTool('test_secret', {
    title: 'Test a candidate secret',
    description: 'Is this text the secret behind a `tin-secret:` handle of a capsule? Answers the handles it matches (and every handle and where it is), never the key. The candidate is not kept.',
    inputSchema: { recording: recordingParam, candidate: z.string().describe('the text to test') },
    annotations: readOnly,
  }, answering(async (a: { recording: string; candidate: string }) => testSecret(await held.get(a.recording), a.candidate)));
}
