// Constants of Tin's capsule format (formats/tcap.md): envelope layout, flags, the known effect kinds.

export const MAGIC_PREFIX = Buffer.from('TINCAP', 'latin1');
export const MAGIC_V1 = Buffer.from([0x54, 0x49, 0x4e, 0x43, 0x41, 0x50, 0x01, 0x00]);
export const MAGIC_V2 = Buffer.from([0x54, 0x49, 0x4e, 0x43, 0x41, 0x50, 0x02, 0x00]);
export const MAGIC_LENGTH = 8;
export const NONCE_LENGTH = 16;
export const TAG_LENGTH = 32;
/** The body starts here in the file (magic + nonce). */
export const BODY_OFFSET = MAGIC_LENGTH + NONCE_LENGTH;
/** Smallest possible version 1 capsule: magic, nonce, tag, empty body. */
export const MIN_CAPSULE_LENGTH = MAGIC_LENGTH + NONCE_LENGTH + TAG_LENGTH;
/**
 * Smallest body: schema, wall, core, status, flags and count words and the tin, program, request
 * and panic string lengths (10 words). A file with less room than this between nonce and tag was cut.
 */
export const MIN_BODY_LENGTH = 10 * 8;

export const FLAG_PANICKED = 1n;
export const FLAG_SAMPLED = 2n;

/** Smallest effect record: six words (seq, kind length, key length, outcome, ident, data length). */
export const MIN_RECORD_LENGTH = 48;

/** Every effect kind of the format document. A reader refuses any other, naming it. */
export const KNOWN_KINDS: ReadonlySet<string> = new Set([
  'tide.now@1',
  'tide.wall@1',
  'dice.seed@1',
  'seal.random@1',
  'wire.http@1',
  'wire.dial@1',
  'wire.read@1',
  'wire.write@1',
  'redis@1',
  'kafka@1',
  'mysql@1',
  'postgres@1',
  'mysql.tx@1',
  'postgres.tx@1',
  'websocket.dial@1',
  'websocket.read@1',
  'websocket.write@1',
  'quarry.read@1',
  'quarry.write@1',
  'quarry.stat@1',
  'quarry.dir@1',
  'quarry.fs@1',
  'sched.select@1',
  'sched.resume@1',
  'sched.cancel@1',
]);

export const RESUME_KIND = 'sched.resume@1';
export const SELECT_KIND = 'sched.select@1';

/** The public key of saved regression tests: SHA-256 of this text (formats/tcap.md, `--save-test`). */
export const PUBLIC_TEST_KEY_TEXT = 'tin replay saved tests: not a secret';
