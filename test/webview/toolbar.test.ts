// The timeline's toolbar offers what works on the recording shown: Replay Against Build is tin's
// (a capsule), Open as Text is a trace's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolbarButtons } from '../../webview-ui/timeline/chrome';
import { FORMAT_TRAITS } from '../../replay-engine/model/format-traits';

test('a capsule gets Replay Against Build, a trace gets Open as Text, never the other', () => {
  const ids = (format: 'mflrr' | 'tcap') => toolbarButtons(FORMAT_TRAITS[format], true).map((b) => b.id);
  assert.ok(ids('tcap').includes('replayAgainstBuild'));
  assert.ok(!ids('tcap').includes('openAsText'));
  assert.ok(ids('mflrr').includes('openAsText'));
  assert.ok(!ids('mflrr').includes('replayAgainstBuild'));
  assert.equal(ids('mflrr')[0], 'replayToPanic');
});
