// The instrumenter's statement model and copy, without machin: statement ranges in one-line
// bodies, blocks, select cases, function literals, multi-line expressions; probe names that
// cannot collide; one clear error and no copy for a program it cannot read.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from './support';
import { instrumentSource, InstrumentError, writeInstrumentedCopy, type StatementTable } from '../../replay-engine/machin/source/instrument';

/** The source text of each statement of a kind, by the table's line/column ranges. */
function texts(src: string, table: StatementTable, kind = 'statement'): string[] {
  const lines = src.split('\n');
  return table.rows
    .filter((r) => r.kind === kind)
    .map((r) => {
      if (r.line === r.endLine) return lines[r.line - 1].slice(r.column - 1, r.endColumn - 1);
      const parts = [lines[r.line - 1].slice(r.column - 1), ...lines.slice(r.line, r.endLine - 1), lines[r.endLine - 1].slice(0, r.endColumn - 1)];
      return parts.join('\n');
    });
}

describe('statement model', () => {
  it('splits a one-line body into statements by column', () => {
    const src = 'func source(out, n) { i := 1  for i <= n { out <- i  i = i + 1 } close(out) }\n';
    const { table } = instrumentSource(src, 'p.mfl');
    assert.deepEqual(texts(src, table), ['i := 1', 'for i <= n { out <- i  i = i + 1 }', 'out <- i', 'i = i + 1', 'close(out)']);
    const forRow = table.rows.find((r) => r.kind === 'statement' && r.column === 31)!;
    assert.equal(forRow.line, 1);
    assert.equal(table.functions[forRow.fn].name, 'source');
  });

  it('numbers entry first, and an exit only for a body that does not end in a return', () => {
    const src = 'func f(x) { return x + 1 }\nfunc g() { println(1) }\n';
    const { table } = instrumentSource(src, 'p.mfl');
    assert.deepEqual(table.rows.map((r) => `${table.functions[r.fn].name}:${r.kind}`), ['f:entry', 'f:return', 'g:entry', 'g:statement', 'g:exit']);
    assert.equal(table.functions[0].exit, null);
    assert.equal(table.functions[1].exit, 5);
  });

  it('treats if/else-if/else as one statement with the bodies inside it, and select cases and default', () => {
    const src = [
      'func main() {',
      '    if a > 1 { x = 1 } else if a < -1 { x = 2 } else { x = 3 }',
      '    select {',
      '    case v := <-ch: println(v)  n = n + 1',
      '    case out <- 4: n = 0',
      '    default: println("idle")',
      '    }',
      '}',
    ].join('\n');
    const { table } = instrumentSource(src, 'p.mfl');
    assert.deepEqual(texts(src, table), [
      'if a > 1 { x = 1 } else if a < -1 { x = 2 } else { x = 3 }',
      'x = 1', 'x = 2', 'x = 3',
      'select {\n    case v := <-ch: println(v)  n = n + 1\n    case out <- 4: n = 0\n    default: println("idle")\n    }',
      'println(v)', 'n = n + 1', 'n = 0', 'println("idle")',
    ]);
  });

  it('reads strings and comments as machin does: braces and // inside them are text', () => {
    const src = 'func main() {\n    s := "{ } // not a comment \\" still"  // a } comment {\n    println(s)\n}\n';
    const { table } = instrumentSource(src, 'p.mfl');
    assert.deepEqual(texts(src, table), ['s := "{ } // not a comment \\" still"', 'println(s)']);
  });

  it('keeps a multi-line expression in one statement, and x<-1 as a comparison', () => {
    const src = 'func main() {\n    total := add(1,\n        2) +\n        3\n    ok := x<-1\n    println(ok)\n}\n';
    const { table } = instrumentSource(src, 'p.mfl');
    const rows = table.rows.filter((r) => r.kind === 'statement');
    assert.deepEqual(rows.map((r) => [r.line, r.column, r.endLine, r.endColumn]), [[2, 5, 4, 10], [5, 5, 5, 15], [6, 5, 6, 16]]);
  });

  it('names function literals as Go does and gives each depth its own probe local', () => {
    const src = 'func main() {\n    f := func(a) { g := func() { println(a) }  g() }\n    f(1)\n}\n';
    const { table, text } = instrumentSource(src, 'p.mfl');
    assert.deepEqual(table.functions.map((f) => f.name), ['main', 'main.func1', 'main.func1.func1']);
    assert.deepEqual(table.functions.map((f) => f.parent), [null, 0, 1]);
    assert.deepEqual(table.probeNames, ['fr_stmt0', 'fr_stmt1', 'fr_stmt2']);
    assert.match(text, /func\(\) \{ fr_stmt2 := "\d+";/);
  });

  it('counts the program calls a return makes, and gives up where the count is not fixed', () => {
    const src = 'func fib(n) { if n < 2 { return n }  return fib(n - 1) + fib(n - 2) }\nfunc h(f, x) { return f(x) }\nfunc k(x) { return x > 0 && fib(x) > 1 }\nfunc s(x) { return str(x) }\n';
    const { table } = instrumentSource(src, 'p.mfl');
    assert.deepEqual(table.rows.filter((r) => r.kind === 'return').map((r) => r.returnCalls), [0, 2, null, null, 0]);
  });

  it('chooses probe names the program does not use', () => {
    const src = 'func main() { fr_stmt0 := 1  println(fr_stmt0) }\n';
    const { table, text } = instrumentSource(src, 'p.mfl');
    assert.notEqual(table.probeNames[0], 'fr_stmt0');
    assert.ok(text.includes(`${table.probeNames[0]} := "1";`));
    assert.ok(text.includes('fr_stmt0 := 1  '), 'the program\'s own variable is left as it was');
  });

  it('copies the names a select case binds where its body starts, as parameters are (machin --print probes neither)', () => {
    const src = 'func main() {\n    select {\n    case r := <-a: println(r)\n    case v, ok := <-b: println(v)\n    case _, ok2 := <-c: println(ok2)\n    case out <- 1: println(1)\n    }\n}\n';
    const { table, text } = instrumentSource(src, 'p.mfl');
    const lines = text.split('\n');
    assert.match(lines[2], /^    case r := <-a: fr_arg_r := r; fr_stmt0 = "\d+"; println\(r\)$/);
    assert.match(lines[3], /^    case v, ok := <-b: fr_arg_v := v; fr_arg_ok := ok; fr_stmt0 = "\d+"; println\(v\)$/);
    assert.match(lines[4], /^    case _, ok2 := <-c: fr_arg_ok2 := ok2; fr_stmt0 = "\d+"; println\(ok2\)$/);
    assert.match(lines[5], /^    case out <- 1: fr_stmt0 = "\d+"; println\(1\)$/);
    for (const n of ['r', 'v', 'ok', 'ok2']) assert.ok(table.paramProbes.some((p) => p.probe === `fr_arg_${n}` && p.param === n), n);
    assert.equal(lines.length, src.split('\n').length);
  });

  it('says which op a statement waits for and which statement follows it in its block', () => {
    const src = 'func main() {\n    go w(ch)\n    x := <-ch\n    ch <- x + 1\n    println(str(<-done))\n    select { case v := <-a: println(v) }\n    if x > 0 { y := 1 }\n    z := 2\n}\n';
    const { table } = instrumentSource(src, 'p.mfl');
    const st = table.rows.filter((r) => r.kind === 'statement');
    const at = (line: number, column = 5) => st.find((r) => r.line === line && r.column === column)!;
    assert.deepEqual([2, 3, 4, 5, 6, 7, 8].map((l) => at(l).op ?? null), [null, 'receive', 'send', 'receive', 'select', null, null]);
    // In main's body each statement is followed by the next line's; the last by none.
    assert.deepEqual([2, 3, 4, 5, 6, 7].map((l) => at(l).next), [3, 4, 5, 6, 7, 8].map((l) => at(l).id));
    assert.equal(at(8).next, undefined);
    // A case body's print; the if body's statement has no follower in its block.
    assert.equal(st.find((r) => r.line === 6 && r.column > 5)!.op, 'print');
    assert.equal(st.find((r) => r.line === 7 && r.column > 5)!.next, undefined);
  });

  it('keeps every line of the program on its line in the copy', () => {
    const src = readFileSync(path.join(__dirname, '../../../shared/fixtures/machin/pipeline/pipeline.mfl'), 'utf8');
    const { text } = instrumentSource(src, 'pipeline.mfl');
    assert.equal(text.split('\n').length, src.split('\n').length);
  });
});

describe('a program the instrumenter cannot read', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['an unterminated string', 'func main() {\n    println("open)\n}\n', /p\.mfl:2:13: unterminated string/],
    ['a raw string', 'func main() {\n    s := `raw`\n}\n', /p\.mfl:2:10: machin 0\.137\.0 has no raw strings/],
    ['a rune literal', "func main() { c := 'a' }\n", /p\.mfl:1:20: .*no rune literals/],
    ['an unclosed body', 'func main() {\n    x := 1\n', /p\.mfl:1:13: this function body is never closed/],
    ['a stray token', 'func main() { x := ) }\n', /p\.mfl:1:20: unexpected `\)`/],
    ['a packed file', `${Buffer.from('func main() { println(1) }').toString('base64')}\n`, /machin pack form/],
  ];
  for (const [what, src, message] of cases) {
    it(`reports ${what} with file, line and column, and says record level still works`, () => {
      assert.throws(() => instrumentSource(src, 'p.mfl'), (err: unknown) => {
        assert.ok(err instanceof InstrumentError);
        assert.match(err.message, message);
        assert.match(err.message, /stepping stays at record level/);
        return true;
      });
    });
  }

  it('writes no copy for it', async () => {
    const dir = tempDir('fr-instrument-');
    const program = path.join(dir, 'bad.mfl');
    writeFileSync(program, 'func main() { s := `x` }\n');
    // A TMPDIR of its own: the other test file running beside this one makes copies in the shared one.
    const tmp = tempDir('fr-instrument-tmp-');
    const was = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await assert.rejects(writeInstrumentedCopy(program), InstrumentError);
    } finally {
      if (was === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = was;
    }
    assert.deepEqual(readdirSync(tmp), [], 'a copy (or its folder) was written');
    assert.deepEqual(readdirSync(dir), ['bad.mfl']);
  });
});

describe('the instrumented copy on disk', () => {
  it('refuses a program path that is a FIFO instead of waiting on it', async () => {
    const dir = tempDir('fr-instrument-');
    const fifo = path.join(dir, 'pipe.mfl');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(writeInstrumentedCopy(fifo), /FIFO|not a regular file/i);
  });

  it('is written into a private temporary folder, never beside the program, which is left as it was', async () => {
    const dir = tempDir('fr-instrument-');
    const program = path.join(dir, 'ok.mfl');
    const src = 'func main() { println(1) }\n';
    writeFileSync(program, src);
    const copy = await writeInstrumentedCopy(program);
    try {
      assert.notEqual(path.dirname(copy.file), dir);
      assert.equal(path.basename(copy.file), 'ok.mfl');
      assert.equal(statSync(copy.dir).mode & 0o777, 0o700);
      assert.match(readFileSync(copy.file, 'utf8'), /fr_stmt0 := "1";/);
      assert.deepEqual(readdirSync(dir), ['ok.mfl']);
      assert.equal(readFileSync(program, 'utf8'), src);
    } finally {
      await copy.remove();
    }
    assert.equal(existsSync(copy.dir), false);
  });
});
