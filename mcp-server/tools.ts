// The tools an agent sees: names, descriptions and input schemas (zod, turned into JSON Schema by
// the SDK), each a thin call into the engine through the held recordings.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RecordingError } from '../replay-engine/model/errors';
import { answering, oneLine, progressReporter, type ToolAnswer } from './answer';
import { CONDITION_MAX, checkConditionNames } from './condition-names';
import { OUTPUT } from './output-schemas';
import { compareHeld, testSecret } from './capsule-tools';
import type { HeldRecordings } from './held-recordings';
import { move, MOVES } from './moves';
import { limitParam, offsetParam } from './paging';
import { listRecords } from './records';
import { evaluateJson, evaluateOutput, sourceJson, sourceOutput } from './source-tools';
import { registerRunQuestionTools } from './run-questions-tools';
import { stateJson } from './state';
import { answeringStructured } from './structured';
import { chainJson, summaryJson, THREADS_SHOWN, VARIABLES_SHOWN } from './summary';
import { findChange, historyPage } from './values';

const recordingParam = z.string().min(1).describe('the handle open_recording returned (r1, ...) or the path of a recording file');
const threadParam = z.string().min(1).describe('a goroutine id (0, 0.1, ...) or a task number of a capsule; a thread label also works');
const positionParam = z.number().int().min(0).describe('cursor position: how many schedule ops (trace) or effects (capsule) have completed');
const recordParam = z.number().int().min(-1).describe('a record (0-based line among the records; -1 is the start, the record count is the end)');
const detailParam = z.boolean().optional().describe('include each record\'s decoded value tree (default false: the one-line summary only)');

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * The SDK words a schema refusal of several arguments on several lines (one per issue); every
 * error this server gives is one line. McpServer keeps its error maker private, so it is replaced
 * on the instance (test/mcp/bad-input.test.ts and the MCP fuzz run hold it to one line).
 */
function oneLineToolErrors(server: McpServer): void {
  (server as unknown as { createToolError(message: string): ToolAnswer }).createToolError = (message: string) => ({
    content: [{ type: 'text', text: oneLine(message) }],
    isError: true,
  });
}

export function registerTools(server: McpServer, held: HeldRecordings, toolchain: boolean): void {
  oneLineToolErrors(server);
  registerRunQuestionTools(server, held);
  server.registerTool('open_recording', {
    title: 'Open a recording',
    description:
      'Open a machin trace (.mflrr) or a Tin capsule (.tcap) and summarize it: format, header facts, threads (goroutines / tasks), the panic and its causal chain, the verify verdict, the boundary and warnings, as `frozen-run inspect --json` does. ' +
      'The recording stays open under the returned handle; its cursor starts at position 0. Capsule keys come only from the server\'s environment (TIN_REPLAY_KEY) or its --key-file, never from a tool argument. ' +
      'With machin (--toolchain) an open replays the trace, which can take seconds: progress is reported to a request with a progressToken, and a cancelled request stops machin.',
    inputSchema: {
      path: z.string().min(1).describe('the recording file: a file:// URI, an absolute path, ~/..., or a path relative to the client\'s first root'),
      program: z.string().min(1).optional().describe('with --toolchain: the .mfl program to replay the trace against, instead of the one its `program` line names (a path as for `path`, inside the client\'s roots)'),
      threads_offset: offsetParam,
      threads_limit: limitParam(THREADS_SHOWN, 1000),
      variables_offset: offsetParam.describe(`index of the first variable name to list (${VARIABLES_SHOWN} a page)`),
    },
    outputSchema: OUTPUT.open_recording,
    annotations: readOnly,
  }, answering(async (a: { path: string; program?: string; threads_offset?: number; threads_limit?: number; variables_offset?: number }, extra) =>
    summaryJson(await held.open(a.path, { signal: extra?.signal, progress: progressReporter(extra), program: a.program }), toolchain, { threadsOffset: a.threads_offset, threadsLimit: a.threads_limit, variablesOffset: a.variables_offset })));

  server.registerTool('close_recording', {
    title: 'Close a recording',
    description: 'Forget an open recording (its handle and cursor).',
    inputSchema: { recording: recordingParam },
    outputSchema: OUTPUT.close_recording,
    annotations: readOnly,
  }, answering((a: { recording: string }) => ({ closed: held.close(a.recording), open: held.handles })));

  server.registerTool('get_state', {
    title: 'State at a position',
    description:
      'The run as of one moment: for each goroutine or task, the record it last did, its statement (`location`: path, line, column, function, text) and program stack (`frames`, innermost first) when the statements are known, the values its variables hold then (machin value histories, or a capsule\'s effect results) and the I/O it has consumed so far. ' +
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
    outputSchema: OUTPUT.get_state,
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
      'Move the recording\'s cursor as the debugger (VS Code) does, with the same stops. When the program\'s statements are known (machin trace, --toolchain, program at hand) the steps go by statement in the thread: step_in / step_back_in: the next / previous statement (into calls); next / step_back: over calls; step_out / step_back_out: to the caller. Without them by record: step_in / step_back_in: the next / previous record of any thread; next / step_back: this thread\'s next / previous record; step_out / step_back_out: its last / first record. ' +
      'continue / reverse_continue: run forward / back, stopping at the panic (on the statement that panicked), a divergence, or where `until` holds; goto: a position or record; to_panic, to_start, to_end. Answers why it stopped, the stop thread\'s statement (`stop.location`: path, line, column, function, text) and stack (`stop.frames`), and the record just done.',
    inputSchema: {
      recording: recordingParam,
      action: z.enum(MOVES),
      thread: threadParam.optional().describe('the thread a step goes in (default: the thread of the last stop; at record level step_in / step_back_in go over every thread)'),
      position: positionParam.optional().describe('for goto'),
      record: recordParam.optional().describe('for goto (exact where a position covers an op and the I/O lines after it)'),
      count: z.number().int().min(1).max(100_000).optional().describe('repeat a step this many times (default 1)'),
      until: z.object({
        breakpoint: z.string().min(1).optional().describe('stop on a record kind (sched, io, redis, http@1), `goroutine ID`, `task N` or `panic`'),
        condition: z.string().min(1).max(CONDITION_MAX).optional().describe(`stop where this expression holds, e.g. \`idx > 10\`, \`kind == "io"\`, \`status == 500\` (record fields, variables, decoded parts; at most ${CONDITION_MAX} characters; a name no record or variable has is an error listing the names)`),
        line: z.number().int().min(1).optional().describe('a line breakpoint, both ways: a line of the program (.mfl, every arrival at its statement) when `path` names the program or is left out and the statements are known; else a line of the trace (or of the capsule\'s decoded document)'),
        path: z.string().min(1).optional().describe('the file `line` is in: the program (its path or file name, e.g. `bank.mfl`) or the recording'),
        variable: z.string().min(1).optional().describe('a data breakpoint: stop where this variable\'s value changes (both ways)'),
        thread: threadParam.optional().describe('the thread whose variable is watched (default: the thread of the last stop)'),
      }).strict().optional().describe('for continue / reverse_continue'),
    },
    outputSchema: OUTPUT.move,
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  }, answering(async (a: { recording: string; action: (typeof MOVES)[number]; thread?: string; position?: number; record?: number; count?: number; until?: { breakpoint?: string; condition?: string; line?: number; path?: string; variable?: string; thread?: string } }, extra) =>
    held.get(a.recording).then((h) => {
      if (a.until?.condition !== undefined) checkConditionNames(h, a.until.condition);
      return h.exclusive(() => move(h, a, extra?.signal, progressReporter(extra), (path) => held.resolvePath(path)));
    })));

  server.registerTool('get_source', {
    title: 'Program source around a statement',
    description:
      'The program\'s lines around a line, or around a goroutine\'s current statement (default: the thread of the last stop, at the cursor or at `position`), each marked with how often the run arrived there in all (`ran`) and before that moment (`ranBefore`); `code: false` where no statement starts. Needs the program\'s statements (machin trace, --toolchain).',
    inputSchema: {
      recording: recordingParam,
      line: z.number().int().min(1).optional().describe('the line to show (default: the thread\'s statement)'),
      thread: threadParam.optional().describe('whose statement (default: the thread of the last stop)'),
      position: positionParam.optional(),
      record: recordParam.optional(),
      around: z.number().int().min(0).max(200).optional().describe('lines shown either side (default 5)'),
    },
    outputSchema: sourceOutput,
    annotations: readOnly,
  }, answeringStructured(async (a: { recording: string; line?: number; thread?: string; position?: number; record?: number; around?: number }) =>
    sourceJson(await held.get(a.recording), { line: a.line, thread: a.thread, position: a.position, record: a.record, around: a.around ?? 5 })));

  server.registerTool('evaluate', {
    title: 'Evaluate an expression',
    description:
      'Answer an expression as the debug console does: variables of the thread (at source level those of frame `frame` of its stack: 0 the innermost, a caller as of its call), record fields (kind, op, thread, line), arithmetic and comparisons (`total + v`, `idx >= len`), `value` / `record` (the decoded record), `history(name[, thread])`. ' +
      'At the cursor, or at `position` / `record` (the cursor does not move). Default thread: the last stop\'s.',
    inputSchema: {
      recording: recordingParam,
      expression: z.string().min(1).max(2000),
      thread: threadParam.optional(),
      frame: z.number().int().min(0).optional().describe('a frame of the thread\'s stack (0: the innermost; see frames in get_state)'),
      position: positionParam.optional(),
      record: recordParam.optional(),
    },
    outputSchema: evaluateOutput,
    annotations: readOnly,
  }, answeringStructured(async (a: { recording: string; expression: string; thread?: string; frame?: number; position?: number; record?: number }) =>
    evaluateJson(await held.get(a.recording), a)));

  server.registerTool('variable_history', {
    title: 'Value history of a variable',
    description: 'Every value a variable took over the run, with its position (`op`: ops done), the op the status bar shows then (`at`) and the goroutine or task, as `frozen-run history --json` gives it. At source level a variable is one function\'s: `gather.lo` or `function`; a bare name several functions bind is answered with the choices. Paged.',
    inputSchema: { recording: recordingParam, variable: z.string().min(1).describe('a name, or `function.name`'), function: z.string().min(1).optional().describe('the function whose variable (source level)'), thread: threadParam.optional().describe('only this goroutine or task'), offset: offsetParam, limit: limitParam(100, 5000) },
    outputSchema: OUTPUT.variable_history,
    annotations: readOnly,
  }, answering(async (a: { recording: string; variable: string; function?: string; thread?: string; offset?: number; limit?: number }) =>
    historyPage(await held.get(a.recording), a.variable, a.thread, toolchain, a.offset, a.limit ?? 100, a.function)));

  server.registerTool('find_value_change', {
    title: 'Where a value changed',
    description:
      'The data breakpoint\'s search: where a variable on a thread changed. backward: the last change at or before the position (the write that gave the value it holds there); forward: the first change after it. ' +
      'Default position: the cursor\'s. Does not move the cursor (move with goto to go there). ' +
      'At source level a bare name is the variable of the function the thread is in at the cursor; `function.name` or `function` names another.',
    inputSchema: { recording: recordingParam, variable: z.string().min(1).describe('a name, or `function.name`'), function: z.string().min(1).optional().describe('the function whose variable (source level)'), thread: threadParam, direction: z.enum(['backward', 'forward']), position: positionParam.optional() },
    outputSchema: OUTPUT.find_value_change,
    annotations: readOnly,
  }, answering(async (a: { recording: string; variable: string; function?: string; thread: string; direction: 'backward' | 'forward'; position?: number }) =>
    findChange(await held.get(a.recording), a.variable, a.thread, a.direction, a.position, toolchain, a.function)));

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
    outputSchema: OUTPUT.list_records,
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
    outputSchema: OUTPUT.causal_chain,
    annotations: readOnly,
  }, answering(async (a: { recording: string; position?: number; offset?: number; limit?: number }) => {
    const h = await held.get(a.recording);
    const tl = h.recording.timeline;
    if (a.position === undefined && !h.recording.panic) {
      return { panic: null, why: tl.traits.toolchain !== null && !toolchain ? 'no panic is known: machin did not run (start the server with --toolchain); give a position for the chain to it' : 'no panic is known for this recording; give a position for the chain to it' };
    }
    if (a.position !== undefined && a.position > tl.stepCount) throw new RecordingError('usage', `position ${a.position} is past the end: positions are 0 to ${tl.stepCount}`);
    return chainJson(h, a.offset, a.limit ?? 200, a.position);
  }));

  server.registerTool('compare_recordings', {
    title: 'Compare two recordings',
    description: 'Two runs of the same program aligned: the first divergence (schedule, effect or I/O), the first differing values and per-thread counts, as `frozen-run compare --json` gives it.',
    inputSchema: { a: recordingParam, b: recordingParam, value_limit: limitParam(20, 200).describe('how many value differences to list (all are counted; default 20)') },
    outputSchema: OUTPUT.compare_recordings,
    annotations: readOnly,
  }, answering(async (a: { a: string; b: string; value_limit?: number }) => compareHeld(await held.get(a.a), await held.get(a.b), a.value_limit ?? 20)));

  server.registerTool('test_secret', {
    title: 'Test a candidate secret',
    description: 'Is this text the secret behind a `tin-secret:` handle of a capsule? Answers the handles it matches (and every handle and where it is), never the key. The candidate is not kept.',
    inputSchema: { recording: recordingParam, candidate: z.string().describe('the text to test') },
    outputSchema: OUTPUT.test_secret,
    annotations: readOnly,
  }, answering(async (a: { recording: string; candidate: string }) => testSecret(await held.get(a.recording), a.candidate)));
}
