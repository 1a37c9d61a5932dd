// Hit conditions (`5`, `>= 3`, `% 2`, `== 4`). In a frozen run the count is the occurrence in
// recording order (the 3rd redis@1 effect of the run), so a hit condition means the same place
// whichever way the cursor travels and however often the user went back and forth.

export interface HitCondition {
  op: '==' | '>=' | '>' | '<' | '<=' | '%';
  n: number;
  text: string;
}

export function parseHitCondition(text: string): HitCondition | string {
  const m = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) return `hit count '${text}' is not understood: use a number (stop at that occurrence), or >= N, > N, < N, <= N, == N, % N`;
  const n = Number(m[2]);
  const op = (m[1] ?? '==') as HitCondition['op'];
  if (op === '%' && n === 0) return 'hit count % 0 would never stop: use % N with N >= 1';
  return { op, n, text: text.trim() };
}

/** Does the `occurrence`-th (1-based) hit satisfy the condition? */
export function hitMatches(h: HitCondition, occurrence: number): boolean {
  switch (h.op) {
    case '==': return occurrence === h.n;
    case '>=': return occurrence >= h.n;
    case '>': return occurrence > h.n;
    case '<': return occurrence < h.n;
    case '<=': return occurrence <= h.n;
    default: return occurrence % h.n === 0;
  }
}
