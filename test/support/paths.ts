// Where tests find things. CI runs a fresh clone in another folder with `shared/` beside it, so
// nothing may name /work: everything is relative to the repository root.
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../..');
/** The shared material (formats, fixtures, tools): `../shared` beside the repository. */
export const SHARED = process.env.FROZEN_RUN_SHARED ?? resolve(REPO_ROOT, '../shared');
export const FIXTURES = resolve(SHARED, 'fixtures');
export const MACHIN_FIXTURES = resolve(FIXTURES, 'machin');
export const TIN_FIXTURES = resolve(FIXTURES, 'tin');
export const GEN_MFLRR = resolve(SHARED, 'tools/gen_mflrr.py');
/** Holds `tin`, the launcher of the tin stand-in (test/standins/tin-standin.mjs; no tin can be had). */
export const TIN_STANDIN_BIN = resolve(REPO_ROOT, 'test/standins/bin');
