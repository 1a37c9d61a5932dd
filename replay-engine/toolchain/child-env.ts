// The environment a toolchain child gets: the caller's, without the capsule key variables. machin
// compiles and runs the program a recording names, so a key in Frozen Run's environment must not
// reach it (or anything it starts). tin is the one child that needs the key, and it gets it only
// as an explicit extra (`extra`, from the tin bridge).

/** Variables that hold capsule keys: TIN_REPLAY_KEY and any other TIN_…KEY… a Tin server reads. */
export function isKeyVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return upper === 'TIN_REPLAY_KEY' || (upper.startsWith('TIN_') && upper.includes('KEY'));
}

export function toolchainEnv(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (!isKeyVariable(name)) env[name] = value;
  return Object.assign(env, extra);
}
