// The rules the runtime owns and the session only asks (issue 28, point 4): whether a restart
// reads the recording anew, carrying the breakpoints over to the runtime that replaces it, and
// where the breakpoints set in a file go. The session's side of each is in session-requests and
// run-questions (over DAP).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ReplayRuntime } from '../../debug-adapter/runtime';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { MACHIN_FIXTURES, traceRecords } from './support';

const TRACE = path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr');
const records = traceRecords(TRACE);
const quiet = { log: () => {} };

describe('runtime rules', () => {
  test('a restart reads the recording anew only when the recording, the program or the use of the toolchain changes', async () => {
    const rt = new ReplayRuntime(await readMflrr(TRACE), quiet, { openedBy: { recording: TRACE, noToolchain: true } });
    assert.equal(rt.needsReopen({ recording: TRACE, noToolchain: true }), false);
    assert.equal(rt.needsReopen({ recording: TRACE, noToolchain: false }), true);
    assert.equal(rt.needsReopen({ recording: TRACE, noToolchain: true, program: '/elsewhere/p.mfl' }), true);
    assert.equal(rt.needsReopen({ recording: `${TRACE}.other`, noToolchain: true }), true);
    // Opened by no launch (the MCP server, the CLI): any restart reads it anew.
    assert.equal(new ReplayRuntime(rt.recording, quiet).needsReopen({ recording: TRACE, noToolchain: true }), true);
  });

  test('the runtime that replaces another carries its breakpoints over, under the same ids', async () => {
    const first = new ReplayRuntime(await readMflrr(TRACE), quiet);
    const set = first.routing.set({ path: TRACE }, TRACE, [{ line: records[2].line }, { line: records[5].line }]);
    assert.equal(set.to, 'recording');
    assert.deepEqual(set.breakpoints.map((b) => b.id), [1, 2]);
    const restarted = new ReplayRuntime(await readMflrr(TRACE), quiet, { previous: first });
    const stop = await restarted.run(true);
    assert.equal(stop.reason, 'breakpoint');
    assert.deepEqual(stop.breakpointIds, [1]);
    // New breakpoints go on from the carried ids.
    assert.deepEqual(restarted.routing.set({ path: TRACE }, TRACE, [{ line: records[7].line }]).breakpoints.map((b) => b.id), [3]);
  });

  test('breakpoints in a file that is neither the recording nor a program with statements go nowhere, with why', async () => {
    const rt = new ReplayRuntime(await readMflrr(TRACE), quiet);
    const program = rt.routing.set({ path: '/somewhere/pipeline.mfl' }, '/somewhere/pipeline.mfl', [{ line: 3 }]);
    assert.equal(program.to, 'nowhere');
    assert.match(program.breakpoints[0].message ?? '', /^Breakpoints in the program need its statements: .+\. Meanwhile they bind to lines of the recording\.$/);
    const other = rt.routing.set({ path: '/somewhere/notes.txt' }, '/somewhere/notes.txt', [{ line: 3 }]);
    assert.equal(other.to, 'nowhere');
    assert.deepEqual(other.breakpoints, [{ verified: false, line: 3, message: 'Frozen Run breakpoints bind to lines of the recording (the trace or the decoded capsule) and of its program.' }]);
  });
});
