// Words the tin commands show (no vscode import, so they are unit-tested): tin's divergence with
// the timeline's record number, and a test name the name box accepts.
import * as path from 'node:path';
import type { ReplayReport } from '../replay-engine/tin/replay-report';

/** What `tin replay --save-test NAME` accepts, as the name box checks it. */
export const TEST_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;

/**
 * A name the test-name box accepts, from the capsule's file name: a spool capsule is named like
 * `00000001700000000123-003-1`, which starts with a digit, so it gets a `capsule_` prefix.
 */
export function suggestedTestName(capsuleFile: string): string {
  const name = path.basename(capsuleFile, '.tcap').replace(/[^A-Za-z0-9_-]/g, '-');
  const named = TEST_NAME.test(name) ? name : `capsule_${name}`;
  return named.slice(0, 100);
}

/**
 * tin's divergence, in tin's numbering (effects from 0), with the timeline's record number (from 1)
 * so the two can be matched; a call after the last record has no record.
 */
export function divergenceText(d: NonNullable<ReplayReport['divergence']>): string {
  const got = `got ${d.got.kind} ${JSON.stringify(d.got.key)}`;
  if (!d.recorded) return `diverged at effect ${d.effect}, after the last recorded effect: ${got}, recorded nothing more`;
  return `diverged at effect ${d.effect} (record ${d.effect + 1} on the timeline): ${got}, recorded ${d.recorded.kind} ${JSON.stringify(d.recorded.key)}`;
}

