// Constants of Tin's capsule format (formats/tcap.md): envelope layout, flags, the known effect kinds.
import { CAPSULE_KINDS } from './decode/kinds';

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

/** Every effect kind of the format document (the table of capsule kinds). A reader refuses any other, naming it. */
export const KNOWN_KINDS: ReadonlySet<string> = new Set(CAPSULE_KINDS.keys());

export const RESUME_KIND = 'sched.resume@1';
export const SELECT_KIND = 'sched.select@1';

/** The public key of saved regression tests: SHA-256 of this text (formats/tcap.md, `--save-test`). */
export const PUBLIC_TEST_KEY_TEXT = 'tin replay saved tests: not a secret';
