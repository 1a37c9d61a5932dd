// The JSON document of a comparison (`frozen-run compare --json`, the MCP server's compare tool;
// docs/compare.md describes every key).
import type { Comparison } from './compare-recordings';

export function compareJson(c: Comparison): object {
  return { version: 1, ...c };
}
