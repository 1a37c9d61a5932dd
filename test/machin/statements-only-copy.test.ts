// The statements-only copy without machin: what the statement model says a statement can do (the
// copy keeps only those that cannot block, call, spawn or panic), which calls it need not print
// around (a straight-line callee), and how a printed run of statements is read back. Its
// replays by the real machin are held to a probe before every statement in statements-only.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStatements } from '../../replay-engine/machin/source/statement-model';
import { instrumentStatementsOnly } from '../../replay-engine/machin/source/instrument';
import { mflProgram } from '../../replay-engine/machin/mfl-program';
import { StatementProbes } from '../../replay-engine/machin/source/statement-replay';

/** The effects of the first statement of main's body. */
function effectsOf(statement: string): string | undefined {
  const m = parseStatements(`func f(a) { return a }\nfunc main() {\n    ${statement}\n}\n`);
  const main = m.functions.findIndex((f) => f.name === 'main');
  return m.statements.find((s) => s.fn === main && s.kind === 'statement')?.effects;
}

describe('what a statement can do besides computing', () => {
  it('a remainder or division by a non-zero integer literal cannot fail; by zero, by a name or by -1 it can', () => {
    assert.equal(effectsOf('k := x % 3'), 'none');
    assert.equal(effectsOf('k := x / 10'), 'none');
    assert.equal(effectsOf('k := x % 0'), undefined);
    assert.equal(effectsOf('k := x / y'), undefined);
    assert.equal(effectsOf('k := x / -1'), undefined);
    assert.equal(effectsOf('k := x / 2.0'), undefined);
  });

  it('parentheses only group; a call of a computed value is a call', () => {
    assert.equal(effectsOf('y := (a + b) * 2'), 'arith');
    assert.equal(effectsOf('y := (a == b)'), 'none');
    assert.equal(effectsOf('y := f(x)(z)'), undefined);
    assert.equal(effectsOf('y := (g)(x)'), undefined);
    assert.equal(effectsOf('y := xs[0]'), undefined);
  });

  it('an `if` is tested with all its `else if`s as one statement: it can do what any of their conditions can', () => {
    assert.equal(effectsOf('if x % 3 == 0 { k := 1 }'), 'none');
    assert.equal(effectsOf('if x > 1 { k := 1 } else if x + 1 > 3 { k := 2 } else { k := 3 }'), 'arith');
    assert.equal(effectsOf('if x > 1 { k := 1 } else if x / y > 3 { k := 2 }'), undefined, 'a division by a name in an else if');
    assert.equal(effectsOf('if xs[0] > 1 { k := 1 }'), undefined);
    assert.equal(effectsOf('if f(x) > 1 { k := 1 }'), undefined);
  });

  it('a statement whose only effect is one direct call names its callee, with what the rest does', () => {
    const m = parseStatements('func f(a) { return a }\nfunc main() {\n    v := f(1) + 2\n    w := f(1) + f(2)\n    u := len(xs) + f(1)\n}\n');
    const main = m.functions.findIndex((f) => f.name === 'main');
    const [v, w, u] = m.statements.filter((s) => s.fn === main && s.kind === 'statement');
    assert.deepEqual(v.call, { callee: 'f', effects: 'arith' });
    assert.equal(w.call, undefined, 'two calls');
    assert.equal(u.call, undefined, 'a builtin call besides');
    assert.equal(m.references.get('f'), 4);
  });
});

const PROGRAM = `func twice(x) {
    y := x * 2
    return y
}

func third(x) {
    t := x % 3
    return t
}

func note(x, out) {
    k := x % 3
    out <- k
}

func apply(g, x) { return g(x) }

func half(x) { return x / 2 }

func main() {
    out := make(chan int)
    a := twice(4)
    b := third(a)
    go note(b, out)
    c := note2(b)
    d := apply(half, c)
    println(str(a + b + c + d + <-out))
}

func note2(x) {
    return x + 1
}
`;

describe('calls a statements-only copy need not print around', () => {
  const program = mflProgram(PROGRAM, '/w/p.mfl');

  it('a straight-line, quiet callee every use of which is such a call: its sites hold what it runs, and it is not instrumented', () => {
    const { text, table } = instrumentStatementsOnly(program, false);
    const rowAt = (line: number) => table.rows.find((r) => r.line === line && r.kind === 'statement')!;
    const fnIndex = (name: string) => table.functions.findIndex((f) => f.name === name);
    const ids = (name: string) => table.rows.filter((r) => r.fn === fnIndex(name)).map((r) => r.id);
    // twice and third (straight-line, only computing in a plain build), note2 (one return)
    assert.deepEqual(rowAt(22).expands, ids('twice'));
    assert.deepEqual(rowAt(23).expands, ids('third'));
    assert.deepEqual(rowAt(25).expands, ids('note2'));
    // note is a goroutine too; half is a function value: both print their own statements
    assert.equal(rowAt(24).expands, undefined);
    assert.equal(rowAt(26).expands, undefined);
    const lines = text.split('\n');
    assert.doesNotMatch(lines.slice(0, 9).join('\n'), /fr_/, 'twice and third carry no probe');
    assert.match(lines[10], /fr_stmt0/, 'note does');
    assert.match(lines[17], /fr_stmt0/, 'half does');
  });

  it('a callee that branches is not straight-line, even when its tests only compute: it prints its own statements', () => {
    const branchy = mflProgram('func pick(x) {\n    k := 0\n    if x % 2 == 0 {\n        k = 1\n    }\n    return k\n}\n\nfunc main() {\n    v := pick(3)\n    println(str(v))\n}\n', '/w/b.mfl');
    const { text, table } = instrumentStatementsOnly(branchy, false);
    const ifRow = table.rows.find((r) => r.line === 3 && r.kind === 'statement')!;
    assert.equal(table.rows.find((r) => r.line === 10 && r.kind === 'statement')!.expands, undefined);
    const lines = text.split('\n');
    assert.match(lines[0], /fr_stmt0, fr_acc0 := "", 1;/, 'pick is instrumented');
    // the quiet `if` is kept in the local, not printed by itself
    assert.match(lines[2], new RegExp(`fr_acc0 = fr_acc0 \\* ${table.base} \\+ ${ifRow.id}; if x`));
  });

  it('in a --safe build, where `*` can panic, twice prints its own statements; third still need not', () => {
    const { table } = instrumentStatementsOnly(program, true);
    const rowAt = (line: number) => table.rows.find((r) => r.line === line && r.kind === 'statement')!;
    assert.equal(rowAt(22).expands, undefined);
    assert.ok(rowAt(23).expands);
  });
});

describe("a --safe statements-only copy's panic marks", () => {
  const GROW = 'func grow(n) {\n    p := 1\n    k := 0\n    for k * k < n {\n        p = p * 3\n        k = k + 1\n    }\n    return p\n}\n\nfunc main() {\n    println(str(grow(9)))\n}\n';
  it('keep a statement only an overflow check can fail, and assign what printing before it would print to the mark local', () => {
    const { text, table } = instrumentStatementsOnly(mflProgram(GROW, '/w/g.mfl'), true, true);
    assert.deepEqual(table.panicMarks, ['fr_mark0']);
    const id = (line: number) => table.rows.find((r) => r.line === line && r.kind === 'statement')!.id;
    const lines = text.split('\n');
    assert.match(lines[0], /fr_stmt0, fr_acc0, fr_mark0 := "", \d+, "";/, 'declared with the others, in one assignment machin does not print');
    assert.ok(lines[4].includes(`fr_acc0 = fr_acc0 * ${table.base} + ${id(5)}; if fr_acc0 == ${id(5)} { fr_mark0 = "${id(5)}" } else { fr_mark0 = str(fr_acc0) }; p = p * 3`), lines[4]);
    assert.doesNotMatch(lines[4], /fr_stmt0 = "|fr_stmt0 = str\(fr_acc0 \*/, 'not printed before (only a full local is)');
    // the loop's test can overflow too: what the body ran is marked at its end, not printed
    assert.match(lines[6], /if fr_acc0 > 0 \{ fr_mark0 = str\(fr_acc0\) \}/);
    assert.match(lines[7], /fr_stmt0 = /, 'a return still prints');
  });

  it('are not made without the stderr library, or for a build without --safe', () => {
    for (const [safe, marks] of [[true, false], [false, true]]) {
      const { text, table } = instrumentStatementsOnly(mflProgram(GROW, '/w/g.mfl'), safe, marks);
      assert.equal(table.panicMarks, undefined);
      assert.doesNotMatch(text, /fr_mark/);
    }
  });

  it('printed by machin (the library not loaded) make the replay refused, never a panic without its last statements', () => {
    const { table } = instrumentStatementsOnly(mflProgram(GROW, '/w/g.mfl'), true, true);
    const probes = new StatementProbes(table);
    probes.takeValue('0', 'fr_mark0', '5', 0);
    assert.match(probes.bad ?? '', /printed the panic mark fr_mark0/);
  });
});

describe("a --safe statements-only copy's panic cuts", () => {
  const SCALE = 'func scale(x) {\n    y := x + 1\n    k := y > 3\n    z := y * 5\n    return z - 1\n}\n\nfunc main() {\n    v := 3\n    v = scale(v)\n    println(str(v))\n}\n';
  const copy = () => instrumentStatementsOnly(mflProgram(SCALE, '/w/s.mfl'), true, true);
  const idAt = (table: ReturnType<typeof copy>['table'], line: number) => table.rows.find((r) => r.line === line && r.kind !== 'entry')!.id;

  it('leave a straight-line callee that only an overflow check can fail unprinted: a literal cut before each such statement, its call marked', () => {
    const { text, table } = copy();
    assert.deepEqual(table.panicCuts, ['fr_cut0']);
    const scale = table.functions.findIndex((f) => f.name === 'scale');
    assert.deepEqual(table.rows.find((r) => r.line === 10)!.expands, table.rows.filter((r) => r.fn === scale && r.kind !== 'exit').map((r) => r.id));
    const lines = text.split('\n');
    assert.equal(lines[1], `    fr_cut0 := "${idAt(table, 2)}"; y := x + 1`, 'declared at the first (machin prints it: the library holds it)');
    assert.equal(lines[2], '    k := y > 3', 'a statement that cannot fail needs no cut');
    assert.equal(lines[3], `    fr_cut0 = "${idAt(table, 4)}"; z := y * 5`);
    assert.equal(lines[4], `    fr_cut0 = "${idAt(table, 5)}"; return z - 1`);
    assert.doesNotMatch(lines.slice(0, 6).join('\n'), /fr_stmt|fr_acc|fr_mark/, 'nothing else in the callee');
    assert.ok(lines[9].includes(`fr_acc0 = fr_acc0 * ${table.base} + ${idAt(table, 10)}; if fr_acc0 == ${idAt(table, 10)} { fr_mark0 = "${idAt(table, 10)}" } else { fr_mark0 = str(fr_acc0) }; v = scale(v)`), lines[9]);
  });

  it('are not made without the marks: the callee prints its own statements', () => {
    const { text, table } = instrumentStatementsOnly(mflProgram(SCALE, '/w/s.mfl'), true, false);
    assert.equal(table.panicCuts, undefined);
    assert.equal(table.rows.find((r) => r.line === 10)!.expands, undefined);
    assert.doesNotMatch(text, /fr_cut/);
  });

  it("read back: the goroutine's next run ends its last call at the cut; a cut with no run after it, or at no statement of that call, makes the replay refused", () => {
    const { table } = copy();
    const B = table.base!;
    const site = idAt(table, 10);
    const ran = table.rows.find((r) => r.id === site)!.expands!;
    const statements = (p: StatementProbes) => Array.from({ length: p.statement.length }, (_, k) => p.statement.get(k));
    const probes = new StatementProbes(table);
    probes.take('0', idAt(table, 9) * B + site, 1); // a run that did not panic: the whole call
    probes.takeNumber('0', 'fr_cut0', idAt(table, 4), 1);
    probes.take('0', site, 1);
    probes.endRuns();
    assert.equal(probes.bad, null);
    assert.deepEqual(statements(probes), [idAt(table, 9), site, ...ran, site, ...ran.slice(0, ran.indexOf(idAt(table, 4)) + 1)]);
    const left = new StatementProbes(table);
    left.takeNumber('0', 'fr_cut0', idAt(table, 4), 1);
    left.endRuns();
    assert.match(left.bad ?? '', /panic cut with no run after it/);
    const elsewhere = new StatementProbes(table);
    elsewhere.takeNumber('0', 'fr_cut0', idAt(table, 4), 1);
    elsewhere.take('0', idAt(table, 9), 1);
    assert.match(elsewhere.bad ?? '', /panic cut at statement \d+, which the call of statement \d+ does not run/);
  });
});

describe("a statements-only copy's probe local", () => {
  const SEND = 'func main() {\n    ch := make(chan int, 1)\n    k := 2\n    ch <- k\n    println(str(<-ch))\n}\n';
  it('holds text: a probe with nothing kept before it is a literal (no number made text at run time), the others go through str', () => {
    const { text, table } = instrumentStatementsOnly(mflProgram(SEND, '/w/s.mfl'), false);
    const send = table.rows.find((r) => r.line === 4 && r.kind === 'statement')!.id;
    assert.match(text, /fr_stmt0, fr_acc0 := "", \d+;/);
    assert.ok(text.includes(`if fr_acc0 == 0 { fr_stmt0 = "${send}" } else { fr_stmt0 = str(fr_acc0 * ${table.base} + ${send}) }; fr_acc0 = 0; ch <- k`), text);
    assert.match(text, /if fr_acc0 > \d+ \{ fr_stmt0 = str\(fr_acc0\); fr_acc0 = 0 \}/);
  });

  it('stays an integer where the program binds the name str itself (a parameter, a local, a function), so that no str of its own is called', () => {
    for (const own of ['func main() {\n    str := 1\n    ch := make(chan int, 1)\n    ch <- str\n    println(<-ch)\n}\n', 'func f(str) {\n    println(str)\n}\n\nfunc main() {\n    f(1)\n}\n', 'func str(x) {\n    return x\n}\n\nfunc main() {\n    println(str(1))\n}\n']) {
      const { text } = instrumentStatementsOnly(mflProgram(own, '/w/o.mfl'), false);
      assert.match(text, /fr_stmt0, fr_acc0 := 0, \d+;/, own);
      assert.doesNotMatch(text, /str\(fr_acc0/, own);
    }
  });
});

describe('reading a statements-only probe back', () => {
  it('a printed number is the run of statements in base B, the first the most significant; a site is followed by what its call ran', () => {
    const { table } = instrumentStatementsOnly(mflProgram(PROGRAM, '/w/p.mfl'), false);
    const B = table.base!;
    const site = table.rows.find((r) => r.expands)!;
    const probes = new StatementProbes(table);
    probes.take('0', 3 * B * B + site.id * B + 5, 7);
    probes.take('0', 9, 8);
    const got = Array.from({ length: probes.statement.length }, (_, k) => [probes.statement.get(k), probes.op.get(k)]);
    assert.deepEqual(got, [[3, 7], [site.id, 7], ...site.expands!.map((id) => [id, 7]), [5, 7], [9, 8]]);
    assert.equal(probes.bad, null);
  });

  it('a digit 0 is no statement: said, nothing taken', () => {
    const { table } = instrumentStatementsOnly(mflProgram(PROGRAM, '/w/p.mfl'), false);
    const probes = new StatementProbes(table);
    probes.take('0', 3 * table.base! * table.base!, 1);
    assert.match(probes.bad ?? '', /goroutine 0 printed \d+ for a statement probe, which in base \d+ has a digit 0/);
    assert.equal(probes.statement.length, 0);
  });

  describe('calls not printed before (a callee that branches but only computes)', () => {
    const BUMP = 'func bump(x) {\n    if x > 2 {\n        return x + 1\n    }\n    return x\n}\n\nfunc main() {\n    a := bump(1)\n    b := bump(5)\n    println(str(a + b))\n}\n';
    const { text, table } = instrumentStatementsOnly(mflProgram(BUMP, '/w/b.mfl'), false);
    const B = table.base!;
    const id = (line: number, kind = 'statement') => table.rows.find((r) => r.line === line && r.kind === kind)!.id;
    const [entry, test, big, small] = [id(1, 'entry'), id(2), id(3, 'return'), id(5, 'return')];
    const [mainEntry, a, b, print] = [id(8, 'entry'), id(9), id(10), id(11)];
    const printed = (...ids: number[]) => ids.reduce((v, d) => v * B + d, 0);
    const taken = (probes: StatementProbes) => Array.from({ length: probes.statement.length }, (_, k) => probes.statement.get(k));

    it('the calls are kept in the caller, and their runs go after them, in order, when the caller prints', () => {
      assert.match(text.split('\n')[8], new RegExp(`fr_acc0 = fr_acc0 \\* ${B} \\+ ${a}; a := bump`), 'main keeps its call in its local, unprinted');
      assert.equal(table.rows[a - 1].splice, 'call');
      const probes = new StatementProbes(table);
      probes.take('0', printed(entry, test, small), 0);
      probes.take('0', printed(entry, test, big), 0);
      assert.equal(probes.statement.length, 0, 'held until the caller prints');
      probes.take('0', printed(mainEntry, a, b, print), 0);
      assert.deepEqual(taken(probes), [mainEntry, a, entry, test, small, b, entry, test, big, print]);
      assert.equal(probes.bad, null);
    });

    it('a callee run no caller printed (the run ended first) is kept, after the rest, once the probes end', () => {
      const probes = new StatementProbes(table);
      probes.take('0', printed(entry, test, small), 3);
      probes.endRuns();
      probes.endRuns();
      assert.deepEqual(taken(probes), [entry, test, small]);
      assert.equal(probes.op.get(0), 3);
    });

    it('a caller printing a call no callee run came for is said, and nothing of it is taken', () => {
      const probes = new StatementProbes(table);
      probes.take('0', printed(mainEntry, a, print), 0);
      assert.match(probes.bad ?? '', /holds 1 call\(s\) whose callee printed 0 run\(s\)/);
      assert.equal(probes.statement.length, 0);
    });
  });
});

