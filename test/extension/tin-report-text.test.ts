// The words the tin commands show: a suggested test name the name box accepts (a spool capsule's
// name starts with a digit), and tin's divergence with the record the timeline marks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { divergenceText, suggestedTestName, TEST_NAME } from '../../extension/tin-report-text';

test('the suggested test name is one the name box accepts', () => {
  assert.equal(suggestedTestName('/w/orders-panic.tcap'), 'orders-panic');
  assert.equal(suggestedTestName('/spool/00000001700000000123-003-1.tcap'), 'capsule_00000001700000000123-003-1');
  assert.equal(suggestedTestName('/w/order 9 (prod).tcap'), 'order-9--prod-');
  for (const file of ['/w/orders-panic.tcap', '/spool/00000001700000000123-003-1.tcap', '/w/.tcap', `/w/${'9'.repeat(300)}.tcap`, '/w/é.tcap']) {
    assert.match(suggestedTestName(file), TEST_NAME, file);
  }
});

test('a divergence names tin\'s effect and the timeline\'s record; a call past the end has no record', () => {
  const got = { kind: 'redis@1', key: '3:GET 6:cart:9\n' };
  assert.equal(
    divergenceText({ effect: 7, got, recorded: { kind: 'redis@1', key: '3:GET 6:cart:8\n' } }),
    'diverged at effect 7 (record 8 on the timeline): got redis@1 "3:GET 6:cart:9\\n", recorded redis@1 "3:GET 6:cart:8\\n"',
  );
  assert.equal(
    divergenceText({ effect: 12, got, recorded: null }),
    'diverged at effect 12, after the last recorded effect: got redis@1 "3:GET 6:cart:9\\n", recorded nothing more',
  );
});
