// The words for where a record or a value is (issue 29, point 7): numbered as the status bar and
// the Call Stack number ops (0..N-1), positions being how many are done (0..N).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterPosition, ioPlace, statementPlace, stepAtPosition } from '../../replay-engine/model/step-words';

test('an I/O read is before the op at its position; one after the last op says so, never op N/N', () => {
  assert.equal(ioPlace(5, 22, 'op'), 'before op 5/22');
  assert.equal(ioPlace(0, 22, 'op'), 'before op 0/22');
  assert.equal(ioPlace(22, 22, 'op'), 'after op 21/22');
  assert.equal(ioPlace(3, 3, 'effect'), 'after effect 2/3');
});

test('a value set at position p is there with the cursor on op p-1; position 0 is the start', () => {
  assert.equal(stepAtPosition(6, 'op'), 'op 5');
  assert.equal(stepAtPosition(1, 'op'), 'op 0');
  assert.equal(stepAtPosition(0, 'op'), 'start');
});

test('the moment after p ops is after op p-1 (inspect\'s panic, the panic lens): never after op N/N', () => {
  assert.equal(afterPosition(16, 16, 'op'), 'after op 15/16');
  assert.equal(afterPosition(1, 16, 'op'), 'after op 0/16');
  assert.equal(afterPosition(0, 16, 'op'), 'before op 0/16');
});

test('a statement that ran with p ops done is before op p (a log point hit, an origin link), never "op p"', () => {
  assert.equal(statementPlace(0, 22, 'op'), 'before op 0/22');
  assert.equal(statementPlace(5, 22, 'op'), 'before op 5/22');
  assert.equal(statementPlace(22, 22, 'op'), 'after op 21/22');
});
