// The Tin fixtures (capsules with .expect.json) and exact reading of their big words.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TIN_FIXTURES } from '../../support/paths';

export { TIN_FIXTURES };

export interface ExpectedEffect {
  seq: number;
  kind: string;
  key: string;
  outcome: 'result' | 'fault';
  ident: number;
  data_hex: string;
}

export interface Expected {
  key: string;
  schema: number;
  tin: string;
  program: string;
  /** Exact, from the JSON text (a double cannot hold it). */
  wallExact: string;
  core: number;
  status: number;
  flags: number;
  panicked: boolean;
  sampled: boolean;
  request: string;
  panic: string;
  peer: string | null;
  effects: ExpectedEffect[];
  effects_truncated_to?: number;
  effect_count?: number;
  tasks?: number[];
  select_site?: string;
  select_arm?: number;
  secret?: { text: string; handle: string };
  error?: string;
}

export function readExpected(path: string): Expected {
  const text = readFileSync(path, 'utf8');
  const wall = /"wall":\s*(-?\d+)/.exec(text);
  if (!wall) throw new Error(`${path}: no wall`);
  return { ...(JSON.parse(text) as Expected), wallExact: wall[1] };
}

/** Every capsule in a folder that has an .expect.json beside it. */
export function fixtureCapsules(dir = TIN_FIXTURES): Array<{ name: string; capsule: string; expected: Expected }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tcap'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.tcap'.length);
      return { name, capsule: join(dir, f), expected: readExpected(join(dir, `${name}.expect.json`)) };
    });
}
