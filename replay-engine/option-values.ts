// The values of the options every front end takes from its command line (the CLI, the MCP
// server): a time limit in seconds, a capsule size limit in MiB. A value of the wrong form is a
// UsageError naming the option.
import { UsageError } from './model/errors';
import { MAX_CAPSULE_LIMIT_MB, validCapsuleLimit } from './tcap/size-limit';

/** --capsule-limit-mb N: the capsule size limit in MiB (else FROZEN_RUN_CAPSULE_LIMIT_MB, else 1,024). */
export function capsuleLimitMB(v: string | boolean | undefined): number | undefined {
  if (typeof v !== 'string') return undefined;
  const mb = Number(v);
  if (!validCapsuleLimit(mb)) throw new UsageError(`--capsule-limit-mb wants a size in MiB from 1 to ${MAX_CAPSULE_LIMIT_MB}, got \`${v}\``);
  return mb;
}

/** --time-limit SECONDS: milliseconds. */
export function timeLimitMs(v: string | boolean | undefined): number | undefined {
  if (typeof v !== 'string') return undefined;
  const s = Number(v);
  if (!Number.isFinite(s) || s <= 0) throw new UsageError(`--time-limit wants seconds, got \`${v}\``);
  return Math.round(s * 1000);
}
