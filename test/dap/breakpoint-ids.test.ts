// Breakpoint ids are per debug session: two sessions side by side (VS Code runs the adapter in
// the extension host, one runtime per session) each number their breakpoints from 1, so one
// session setting breakpoints never changes the ids the other's client holds; a restart's table
// goes on from the previous table's ids.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ReplayRuntime } from '../../debug-adapter/runtime';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { MACHIN_FIXTURES, traceRecords } from './support';

const TRACE = path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr');
const records = traceRecords(TRACE);
const quiet = { log: () => {} };

describe('breakpoint ids', () => {
  test('two sessions number their breakpoints each from 1', async () => {
    const a = new ReplayRuntime(await readMflrr(TRACE), quiet);
    const b = new ReplayRuntime(await readMflrr(TRACE), quiet);
    const lines = [{ line: records[2].line }, { line: records[5].line }];
    assert.deepEqual(a.breakpoints.setLineBreakpoints(lines).map((r) => r.id), [1, 2]);
    assert.deepEqual(b.breakpoints.setLineBreakpoints(lines).map((r) => r.id), [1, 2]);
    assert.deepEqual(a.breakpoints.setFunctionBreakpoints([{ name: 'main' }]).map((r) => r.id), [3]);
    assert.deepEqual(b.breakpoints.setFunctionBreakpoints([{ name: 'main' }]).map((r) => r.id), [3]);
  });

  test('a restart keeps the ids the client was told and gives new breakpoints new ones', async () => {
    const first = new ReplayRuntime(await readMflrr(TRACE), quiet);
    assert.deepEqual(first.breakpoints.setLineBreakpoints([{ line: records[2].line }, { line: records[5].line }]).map((r) => r.id), [1, 2]);
    const restarted = new ReplayRuntime(await readMflrr(TRACE), quiet);
    restarted.breakpoints.carryOver(first.breakpoints);
    const next = restarted.breakpoints.setLineBreakpoints([{ line: records[2].line }, { line: records[7].line }]);
    assert.equal(new Set(next.map((r) => r.id)).size, 2);
    for (const r of next) assert.ok(r.id > 2, `new breakpoint id ${r.id} after the carried ids 1 and 2`);
  });
});
