// The first variable whose value differs: each (variable, goroutine) compared as the sequence of
// values it took, the earliest difference (by op in A) reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstVariableDifference } from '../../replay-engine/compare/history-difference';
import type { HistoryEntry, Recording, ValueHistories } from '../../replay-engine/model/recording';
import { timelineOf } from './support/timelines';
import type { MflrrHeader } from '../../replay-engine/mflrr/header';

type Probe = [goroutine: string, name: string, value: string, op: number];

function recordingWith(threads: string[], probes: Probe[]): Recording {
  const timeline = timelineOf(threads.map((t) => `S ${t}`));
  const index = (id: string) => timeline.threadIndex(id);
  const histories: ValueHistories = {
    names: [...new Set(probes.map((p) => p[1]))],
    entries: (name) => probes.filter((p) => p[1] === name).map(([g, , value, position]): HistoryEntry => ({ thread: index(g), position, value })),
    count: (name) => probes.filter((p) => p[1] === name).length,
    valueAt: () => undefined,
  };
  const header = { magic: 'MFLRR', version: 1, boundary: 'faithful', program: null, safe: null } as unknown as MflrrHeader;
  const unused = (): never => {
    throw new Error('unused');
  };
  return { format: 'mflrr', header, timeline, warnings: [], bestEffort: false, panic: null, verify: null, histories, describe: unused, faults: unused, comparisonParts: unused, programNamed: unused, inspectDocument: unused, inspectJson: unused, inspectText: unused };
}

test('the earliest differing assignment wins, across variables and goroutines', () => {
  const a = recordingWith(['0', '0.1', '0.2'], [
    ['0', 'total', '0', 0],
    ['0.1', 'x', '1', 2],
    ['0', 'total', '5', 4],
    ['0.2', 'x', '7', 6],
  ]);
  // Goroutine ids are in another order in B: they are matched by id, not by index.
  const b = recordingWith(['0.2', '0', '0.1'], [
    ['0', 'total', '0', 0],
    ['0.2', 'x', '8', 1],
    ['0.1', 'x', '1', 3],
    ['0', 'total', '6', 5],
  ]);
  const d = firstVariableDifference(a, b);
  assert.deepEqual(d, { name: 'total', thread: '0', threadLabel: '', assignment: 1, a: { op: 4, value: '5' }, b: { op: 5, value: '6' } });
});

test('an assignment one run never made is a difference; equal sequences are none', () => {
  const a = recordingWith(['0'], [['0', 'n', '1', 1], ['0', 'n', '2', 3]]);
  const b = recordingWith(['0'], [['0', 'n', '1', 2]]);
  assert.deepEqual(firstVariableDifference(a, b)?.b, { op: null, value: null });
  assert.deepEqual(firstVariableDifference(a, b)?.a, { op: 3, value: '2' });
  assert.equal(firstVariableDifference(b, b), null);
  const none = { ...b, histories: null };
  assert.equal(firstVariableDifference(a, none), null);
});
