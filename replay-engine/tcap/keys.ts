// Key material of a capsule: the 32-byte key K from 64 hex digits, and the three keys derived
// from it (formats/tcap.md). Nothing here prints or logs a key.
import { createHash, createHmac } from 'node:crypto';
import { RecordingError } from '../model/errors';
import { PUBLIC_TEST_KEY_TEXT } from './format';
import { u8 } from './u8';

export interface CapsuleKeys {
  /** Keystream key: HMAC-SHA256(K, "tin replay enc"). */
  ke: Uint8Array;
  /** Tag key: HMAC-SHA256(K, "tin replay mac"). */
  km: Uint8Array;
  /** Secret-handle key: HMAC-SHA256(K, "tin replay secret"). */
  ks: Uint8Array;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The 32 key bytes from 64 hex digits; `source` names where it came from (never the key itself). */
export function parseKeyHex(hex: string, source: string): Uint8Array {
  const text = hex.trim();
  if (!HEX64.test(text)) {
    throw new RecordingError(
      'usage',
      `the capsule key from ${source} is not 64 hex digits (32 bytes); give the key exactly as TIN_REPLAY_KEY was set on the server`,
    );
  }
  return u8(Buffer.from(text, 'hex'));
}

export function deriveKeys(key: Uint8Array): CapsuleKeys {
  const derive = (label: string) => u8(createHmac('sha256', key).update(label, 'latin1').digest());
  return { ke: derive('tin replay enc'), km: derive('tin replay mac'), ks: derive('tin replay secret') };
}

/** The public key of saved regression tests (SHA-256 of a published text). */
export function publicTestKey(): Uint8Array {
  return u8(createHash('sha256').update(PUBLIC_TEST_KEY_TEXT, 'utf8').digest());
}
