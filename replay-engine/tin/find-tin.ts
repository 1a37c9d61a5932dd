// Where tin is: the setting (an explicit path), else the TIN environment variable, else PATH.
import { isAbsolute, resolve } from 'node:path';
import { isExecutable, searchPath } from '../toolchain/find-executable';
import { RecordingError } from '../model/errors';

export interface FindTinOptions {
  /** The frozenRun.tinPath setting or --tin PATH. */
  tinPath?: string;
  env?: NodeJS.ProcessEnv;
}


export function findTin(options: FindTinOptions = {}): string {
  const env = options.env ?? process.env;
  for (const [given, from] of [
    [options.tinPath, 'the tin path setting (--tin)'],
    [env.TIN, 'the TIN environment variable'],
  ] as const) {
    if (given === undefined || given === '') continue;
    const path = isAbsolute(given) || given.includes('/') ? resolve(given) : searchPath(given, env);
    if (path && isExecutable(path)) return path;
    throw new RecordingError('toolchain-missing', `tin: ${from} names ${given}, which is not an executable file; fix it or unset it to use tin from PATH`);
  }
  const onPath = searchPath('tin', env);
  if (onPath) return onPath;
  throw new RecordingError(
    'toolchain-missing',
    'tin: not found; install Tin, or set the frozenRun.tinPath setting, the TIN environment variable, or pass --tin PATH',
  );
}
