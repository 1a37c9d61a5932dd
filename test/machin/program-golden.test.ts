// The one program model changes nothing a user sees: for every fixture program the instrumented
// copy and its statement table are byte for byte those the previous readers wrote, and the labels,
// names and spawns are the same. The golden files were written by the code before the program
// model was one (test/machin/golden/, commit h7 "golden outputs"); regenerate them only on purpose
// (the copies' texts were, once: the statement probes became text literals, the tables unchanged).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { mflProgram } from '../../replay-engine/machin/mfl-program';
import { instrumentSource } from '../../replay-engine/machin/source/instrument';
import { assignedVariables } from '../../replay-engine/machin/source/program-functions';

const copies = JSON.parse(readFileSync('test/machin/golden/instrumented-copies.json', 'utf8')) as Record<string, { text?: string; table?: string; error?: string }>;
const facts = JSON.parse(readFileSync('test/machin/golden/program-facts.json', 'utf8')) as Record<string, { printed: string[]; globals: string[]; functions: unknown[] }>;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the program model keeps every output the same', () => {
  it('covers every fixture program', () => {
    assert.ok(Object.keys(copies).length >= 12, Object.keys(copies).join(', '));
    assert.deepEqual(Object.keys(facts), Object.keys(copies));
  });

  for (const [file, want] of Object.entries(copies)) {
    it(`instruments ${file} byte-identically`, () => {
      const src = readFileSync(file, 'utf8');
      try {
        const got = instrumentSource(src, 'p.mfl');
        assert.deepEqual({ text: sha(got.text), table: sha(JSON.stringify(got.table)) }, want);
      } catch (err) {
        if (!want.error) throw err;
        assert.equal((err as Error).message, want.error);
      }
    });
  }

  for (const [file, want] of Object.entries(facts)) {
    it(`reads the same functions, names and spawns from ${file}`, () => {
      const p = mflProgram(readFileSync(file, 'utf8'), '/p.mfl');
      assert.deepEqual(JSON.parse(JSON.stringify({ printed: assignedVariables(p), globals: p.globals, functions: [...p.functions.values()] })), want);
    });
  }

  it('names function literals alike for labels and statements (one counter per enclosing function)', () => {
    const src = 'func main() { f := func() { g := func() { println(1) } g() } h := func() { println(2) } f() h() go func() { println(3) }() }\nfunc w() { k := func() { println(4) } k() }';
    const p = mflProgram(src, '/p.mfl');
    const model = p.statements();
    assert.ok(!(model instanceof Error), String(model));
    const fromStatements = model.functions.map((f) => f.name).sort();
    assert.deepEqual([...p.functions.keys()].sort(), fromStatements);
    assert.deepEqual(fromStatements, ['main', 'main.func1', 'main.func1.func1', 'main.func2', 'main.func3', 'w', 'w.func1']);
  });

  it('a packed file: labels and names from the unpacked lines, statements refused with the reason', () => {
    const p = mflProgram(`${Buffer.from('func work(c) { v := 1 c <- v }').toString('base64')}\n${Buffer.from('func main() { c := make(chan int) go work(c) <-c }').toString('base64')}\n`, '/p.mfl');
    assert.deepEqual(assignedVariables(p), ['c', 'v']);
    assert.equal(p.functions.get('main')?.line, 2);
    const model = p.statements();
    assert.ok(model instanceof Error && /machin pack form/.test(model.message));
  });

  it('a file machin would refuse still gives its labels; its statements say where and why', () => {
    const p = mflProgram('func main() {\n  s := `raw`\n  go worker()\n}\nfunc worker() { x := 1 }', '/p.mfl');
    assert.equal(p.functions.get('worker')?.line, 5);
    assert.deepEqual(p.functions.get('main')?.events.map((e) => e.kind), ['go']);
    const model = p.statements();
    assert.ok(model instanceof Error && 'offset' in model && model.offset === 21 && /raw strings/.test(model.message), String(model));
  });
});
