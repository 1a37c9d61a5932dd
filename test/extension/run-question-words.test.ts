// The words the editor says for the whole run's answers (issue 30): a log point hit's place in the
// status bar's words, why a log point lists no hit (an unbound line is not "never reached"), the
// "show more" row, a value origin chain's rows and its end, the line count hover per goroutine and
// per function, and the timeline's marks placed on the model's lanes by goroutine id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogHit } from '../../debug-adapter/log-point-hits';
import type { OriginChain } from '../../replay-engine/machin/source/value-origin';
import { hitDescription, hitPlace, moreNote, noHitNote } from '../../extension/view-models/hit-words';
import { lineCountModel } from '../../extension/view-models/line-count-model';
import { chainTitle, endRow, stepRow } from '../../extension/view-models/origin-words';
import { runMarksMsg } from '../../extension/view-models/run-marks-model';

const hit: LogHit = { seq: 9, arrival: 2, thread: 1, goroutine: '0.1', event: 4, line: 5, column: 9, function: 'work', position: 3, text: 'i=1', thisReplayOnly: false, problems: [] };

const chain: OriginChain = {
  variable: 'r',
  goroutine: '0',
  value: '3',
  steps: [
    { via: 'receive', goroutine: '0', thread: 0, event: 20, seq: 40, line: 17, column: 9, function: 'main', position: 6, text: 'r := <-done', variable: 'r', value: '3', thisReplayOnly: false },
    { via: 'send', goroutine: '0.1', thread: 1, event: 12, seq: 30, line: 8, column: 5, function: 'work', position: 4, text: 'done <- acc', variable: 'acc', value: '3', thisReplayOnly: true },
  ],
  end: { kind: 'computed', message: 'acc = acc + id * i computed it from acc, id, i', from: ['acc', 'id', 'i'] },
};

describe('the words of the whole run in the editor', () => {
  it('a hit says its op as the status bar does, and an unbound log point is no statement line', () => {
    assert.equal(hitPlace(0), 'before op 0');
    assert.equal(hitPlace(3), 'op 2');
    assert.equal(hitDescription(hit), 'goroutine 0.1 · work 5:9 · op 2');
    assert.equal(noHitNote({ verified: false, message: 'No statement starts on line 3 (the next one is on line 4).', line: 3, arrivals: 0 }), 'Not listed: No statement starts on line 3 (the next one is on line 4).');
    assert.match(noHitNote({ verified: false, line: 3, arrivals: 0 }), /^Not a statement line/);
    assert.equal(noHitNote({ verified: true, line: 3, arrivals: 0 }), 'The run never reaches this line.');
    assert.equal(noHitNote({ verified: true, line: 3, arrivals: 5 }), 'No hit passes the condition, hit count or filter.');
    assert.equal(moreNote(200, 200, 450), 'Show more… (200 shown; 250 more arrivals at the line to look at)');
  });

  it('an origin chain reads link by link, then where it leaves the recording', () => {
    assert.equal(chainTitle(chain), 'Where r = 3 (goroutine 0) came from: 2 links');
    assert.deepEqual(stepRow(chain.steps[0], 0), { label: '1. r = 3', description: 'received here · goroutine 0 · main 17:9 · op 5', detail: 'r := <-done' });
    assert.equal(stepRow(chain.steps[1], 1).description, 'sent here · goroutine 0.1 · work 8:5 · op 3 · this replay only');
    assert.equal(endRow(chain.end).label, 'End: computed from acc, id, i');
    assert.equal(endRow({ kind: 'io', message: 'now_ms() read the clock', record: 3, recordLine: 7 }).detail, "now_ms() read the clock (the recording's line 7)");
  });

  it('a line count hover says per goroutine, and per function where the line holds several', () => {
    const one = { line: 1, hits: 4, thisReplayOnly: 0, byGoroutine: { '0.1': 1, '0.2': 3 }, functions: ['sq'], byFunction: { sq: 4 } };
    const single = lineCountModel({ file: '/p.mfl', lines: [one], notReached: [3] });
    assert.match(single.marks[0].hover, /per goroutine:\n\n- goroutine 0\.1: 1\n- goroutine 0\.2: 3/);
    assert.doesNotMatch(single.marks[0].hover, /per function/);
    assert.deepEqual(single.notReached, [2]);
    const two = lineCountModel({ file: '/p.mfl', lines: [{ ...one, functions: ['sq', 'main'], byFunction: { sq: 3, main: 1 } }], notReached: [] });
    assert.match(two.marks[0].hover, /per function:\n\n- sq: 3\n- main: 1/);
  });

  it('the timeline marks land on the lanes of their goroutines', () => {
    const threads = [{ id: '0', label: 'main' }, { id: '0.1', label: '' }];
    const m = runMarksMsg(threads, [{ goroutine: '0.1', position: 3 }, { goroutine: '9.9', position: 1 }], 2, chain);
    assert.deepEqual(m.hits, [{ position: 3, lane: 1 }]);
    assert.deepEqual(m.origin?.links.map((l) => [l.lane, l.position, l.via]), [[0, 6, 'receive'], [1, 4, 'send']]);
    assert.equal(m.origin?.end, 'End: computed from acc, id, i');
    assert.equal(runMarksMsg(threads, [], 0, null).origin, null);
  });
});
