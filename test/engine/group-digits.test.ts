// Counts in messages are written as toLocaleString('en-US') writes them, without loading the
// locale data on the launch's path (replay-engine/model/group-digits.ts).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { groupDigits } from '../../replay-engine/model/group-digits';

it('writes an integer as en-US does: a comma between groups of three digits', () => {
  const samples = [0, 7, 42, 999, 1000, 12345, 262144, 999999, 1000000, 2100012, 123456789, 4294967295, 2 ** 53 - 1, -1, -1234567];
  for (const n of samples) assert.equal(groupDigits(n), n.toLocaleString('en-US'), String(n));
});
