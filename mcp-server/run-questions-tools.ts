// MCP tools asking the whole run (issue 30): `line_hits` (every hit of a program line with an
// expression's value at each, paged; without a line, how often each line ran) and `value_origin`
// (where a variable's value came from, across goroutines and channels). The same engine answers as
// `frozen-run hits` / `frozen-run origin` (LogPoint, lineCounts, ValueOrigins). Each answer is
// also structured content, described by its output schema.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { LogPoint } from '../debug-adapter/log-point-hits';
import { ValueOrigins } from '../replay-engine/machin/source/value-origin';
import { lineCounts } from '../replay-engine/model/line-counts';
import { RecordingError } from '../replay-engine/model/errors';
import { readyStatements } from '../replay-engine/model/recording';
import { errorText } from './answer';
import type { HeldRecording, HeldRecordings } from './held-recordings';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

const hitSchema = z.object({
  seq: z.number(), arrival: z.number(), goroutine: z.string(), function: z.string(), line: z.number(), column: z.number(),
  position: z.number().describe('ops done when the statement ran'), text: z.string().describe('the expression\'s value (or the message) at this hit'),
  thisReplayOnly: z.boolean().describe('machin may not print this statement or value in another replay'), problems: z.array(z.string()),
});
const countSchema = z.object({ line: z.number(), hits: z.number(), thisReplayOnly: z.number(), byGoroutine: z.record(z.string(), z.number()), functions: z.array(z.string()), byFunction: z.record(z.string(), z.number()).describe('arrivals per function (several on a line of one-line functions)') });
const lineHitsOutput = {
  file: z.string(),
  line: z.number().nullable(),
  hits: z.array(hitSchema).optional(),
  arrivals: z.number().optional().describe('arrivals at the line in the whole run'),
  next_offset: z.number().nullable().optional().describe('pass as offset for the next page; null: no more'),
  lines: z.array(countSchema).optional().describe('without a line: every line that ran'),
  notReached: z.array(z.number()).optional().describe('lines where a statement starts that no goroutine reached in this run'),
};
const stepSchema = z.object({
  via: z.enum(['store', 'copy', 'receive', 'send', 'call']), goroutine: z.string(), function: z.string(), line: z.number(), column: z.number(),
  position: z.number(), seq: z.number(), text: z.string(), variable: z.string(), value: z.string().nullable(), thisReplayOnly: z.boolean(),
});
const originOutput = {
  variable: z.string(), goroutine: z.string(), value: z.string(),
  steps: z.array(stepSchema).describe('from the statement that stored the value back towards where it came from'),
  end: z.object({ kind: z.string(), message: z.string(), record: z.number().optional(), recordLine: z.number().optional(), from: z.array(z.string()).optional() }),
};

async function statementsOf(h: HeldRecording) {
  if (h.recording.valuesPending) await h.recording.valuesPending;
  const s = readyStatements(h.recording);
  if (!s) {
    const st = h.recording.sourceLevel;
    throw new RecordingError('usage', `${h.file}: the program's statements are not known${st?.state === 'unavailable' ? `: ${st.reason}` : ' (the server runs machin only with --toolchain)'}`, { file: h.file });
  }
  return s;
}

function structured<A>(body: (a: A) => Promise<Record<string, unknown>>) {
  return async (a: A) => {
    try {
      const value = await body(a);
      return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value };
    } catch (err) {
      return { content: [{ type: 'text' as const, text: errorText(err) }], isError: true };
    }
  };
}

export function registerRunQuestionTools(server: McpServer, held: HeldRecordings): void {
  server.registerTool('line_hits', {
    title: 'Every hit of a program line',
    description:
      'A print statement added after the fact: every time the run arrived at `line` of the program (.mfl), in run order, with `expression` evaluated there (locals of the hit\'s frame, arithmetic, comparisons; `goroutine`, `line`, `function` too), paged. ' +
      'Without line: how often each line ran, per goroutine, and the lines never reached. Needs the program\'s statements (the server started with --toolchain).',
    inputSchema: {
      recording: z.string().min(1).describe('the handle open_recording returned or the path of a recording file'),
      path: z.string().optional().describe('the program file (checked against the recording\'s program)'),
      line: z.number().int().min(1).optional(),
      expression: z.string().optional(),
      goroutine: z.string().optional().describe('only this goroutine\'s hits'),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(1000).optional().describe('hits per page (default 100)'),
    },
    outputSchema: lineHitsOutput,
    annotations: readOnly,
  }, structured(async (a: { recording: string; path?: string; line?: number; expression?: string; goroutine?: string; offset?: number; limit?: number }) => {
    const h = await held.get(a.recording);
    const s = await statementsOf(h);
    if (a.path && resolve(a.path) !== resolve(s.file) && !s.file.endsWith(`/${a.path}`)) throw new Error(`${a.path} is not the recording's program (${s.file})`);
    if (a.line === undefined) {
      const c = lineCounts(s, h.recording.timeline);
      return { file: c.file, line: null, lines: c.lines, notReached: c.notReached };
    }
    const lp = new LogPoint(h.recording, s, { line: a.line, logMessage: a.expression ? `{${a.expression}}` : '' });
    const page = lp.page(a.offset ?? 0, a.limit ?? 100, { goroutine: a.goroutine });
    return {
      file: s.file, line: a.line, arrivals: page.arrivals, next_offset: page.next < page.arrivals ? page.next : null,
      hits: page.hits.map(({ thread: _t, event: _e, ...rest }) => rest),
    };
  }));

  server.registerTool('value_origin', {
    title: 'Where a value came from',
    description:
      'The chain behind a variable\'s value in a goroutine at a position: the statement that stored it in its frame; through a receive, the send in the goroutine that sent it (the k-th receive on a channel takes its k-th send); through copies and parameters to the call that passed them; ' +
      'and where the chain leaves what the recording knows (an I/O read: the trace record; a value computed from several names; a constant).',
    inputSchema: {
      recording: z.string().min(1).describe('the handle open_recording returned or the path of a recording file'),
      variable: z.string().min(1),
      thread: z.string().min(1).describe('the goroutine id (0, 0.1, ...)'),
      position: z.number().int().min(0).optional().describe('ops done (default: the end of the run)'),
    },
    outputSchema: originOutput,
    annotations: readOnly,
  }, structured(async (a: { recording: string; variable: string; thread: string; position?: number }) => {
    const h = await held.get(a.recording);
    const s = await statementsOf(h);
    const tl = h.recording.timeline;
    const t = tl.threadIndex(a.thread);
    if (t < 0) throw new Error(`no goroutine ${a.thread} in this recording`);
    const at = Math.min(a.position ?? tl.stepCount, tl.stepCount);
    const e = s.currentEvent(t, (at >= tl.stepCount ? s.eventCount : s.seqAtPosition(at)) - 1);
    if (e < 0) throw new Error(`goroutine ${a.thread} has run no statement at position ${at}`);
    const c = new ValueOrigins(h.recording, s).chain(a.variable, t, e, at);
    return { ...c, steps: c.steps.map(({ thread: _t, event: _e, ...rest }) => rest) };
  }));
}
