// Reading machin programs (the one program model, machin/mfl-program.ts): the variables each binds
// (the `--print` list), which function each goroutine runs (`0.k` = the k-th `go` its parent
// executes, known only while spawns are unconditional), its statements and their op words.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { mflProgram as parseMflProgram } from '../../replay-engine/machin/mfl-program';
import { assignedVariables, goroutineLabels } from '../../replay-engine/machin/source/program-functions';
import { FIXTURES } from './support';

const fixture = (name: string) => parseMflProgram(readFileSync(`${FIXTURES}/${name}`, 'utf8'), `/src/${name}`);
const labels = (src: string, ids: string[]) => Object.fromEntries(goroutineLabels(parseMflProgram(src, '/p.mfl'), ids));

describe('variables a program binds', () => {
  // Read off the fixture sources by hand: :=, =, for, function parameters, multi-assign.
  const cases: Array<[string, string[]]> = [
    ['client/client.mfl', ['status', 'body', 'err', 'msg']],
    ['crash/crash.mfl', ['ch', 'v', 'xs', 'idx', 'a', 'b']],
    ['gopanic/gopanic.mfl', ['ch', 'done', 'd', 'x', 'q', 'a', 'b']],
    ['pipeline/pipeline.mfl', ['in', 'out', 'k', 'v', 'n', 'i', 'mid', 'res', 'total']],
    ['flaky/flaky.mfl', ['ch', 'base', 'dly', 'i', 'a', 'b', 'got', 'order', 'x', 'y']],
    ['reader/reader.mfl', ['secret', 't', 'r', 'tag']],
    ['stdin/stdin.mfl', ['text', 'n']],
    ['ffi/ffi.mfl', ['ch', 'x', 'v']],
  ];
  for (const [file, names] of cases) {
    it(file, () => assert.deepEqual(new Set(assignedVariables(fixture(file))), new Set(names)));
  }

  it('every name the recorded --print runs asked for is found', () => {
    for (const [file, asked] of [['crash/crash.mfl', 'idx,a,b'], ['gopanic/gopanic.mfl', 'x,q,a,b'], ['pipeline/pipeline.mfl', 'total,i'], ['flaky/flaky.mfl', 'got,order']]) {
      const names = assignedVariables(fixture(file));
      for (const n of asked.split(',')) assert.ok(names.includes(n), `${file}: ${n}`);
    }
  });

  it('per function, in the tight canonical form, with globals, results, variadics, range pairs, closures', () => {
    const p = parseMflProgram(
      [
        'var hits = 0',
        'type P struct { x int y int }',
        'func divmod(a, b) (q, r) {q=a/b r=a%b return}',
        'func sum(nums...){t:=0 for _,n:=range nums{t=t+n} return t}',
        'func main(){xs:=[]P{P{1,2},{3,4}} m:=map[string]int{"a":1} m["b"]=2 xs[0].x=5 q2,r2:=divmod(7,2) f:=func(z){w:=z} f(1) var s = "x" hits = hits + 1 for i, p := range xs {println(p.x+i)}}',
      ].join('\n'),
      '/p.mfl',
    );
    assert.deepEqual(p.globals, ['hits']);
    assert.deepEqual(p.functions.get('divmod')!.assigned, ['a', 'b', 'q', 'r']);
    assert.deepEqual(p.functions.get('sum')!.assigned, ['nums', 't', 'n']);
    assert.deepEqual(p.functions.get('main')!.assigned, ['xs', 'm', 'q2', 'r2', 'f', 's', 'hits', 'i', 'p']);
    assert.deepEqual(p.functions.get('main.func1')!.assigned, ['z', 'w']);
    assert.equal(p.functions.get('main')!.line, 5);
    assert.ok(!assignedVariables(p).includes('x'), 'a field is not a variable');
  });

  it('reads a base64-packed declaration line (machin pack), keeping its line number', () => {
    const packed = Buffer.from('func work(c){v:=1 c<-v}').toString('base64');
    const p = parseMflProgram(`${packed}\nfunc main(){c:=make(chan int) go work(c) <-c}`, '/p.mfl');
    assert.deepEqual(p.functions.get('work')?.assigned, ['c', 'v']);
    assert.equal(p.functions.get('work')?.line, 1);
    assert.deepEqual(Object.fromEntries(goroutineLabels(p, ['0.1'])), { '0.1': 'work' });
  });

  it('ignores comments and strings that look like code', () => {
    const p = parseMflProgram('func main() { // go worker() x := 1\n s := "go f() y := 2" }', '/p.mfl');
    assert.deepEqual(p.functions.get('main')!.assigned, ['s']);
    assert.deepEqual(p.functions.get('main')!.events, []);
  });
});

describe('goroutine labels', () => {
  it('the fixtures', () => {
    const ids = ['0', '0.1', '0.2', '0.3', '0.1.1', '0.1.2', '0.2.1'];
    assert.deepEqual(Object.fromEntries(goroutineLabels(fixture('crash/crash.mfl'), ids)), { '0': 'main', '0.1': 'worker', '0.2': 'worker' });
    assert.deepEqual(Object.fromEntries(goroutineLabels(fixture('pipeline/pipeline.mfl'), ids)), { '0': 'main', '0.1': 'spawner', '0.1.1': 'source', '0.1.2': 'stage' });
    assert.deepEqual(Object.fromEntries(goroutineLabels(fixture('flaky/flaky.mfl'), ids)), { '0': 'main', '0.1': 'feed', '0.2': 'feed' });
    assert.deepEqual(Object.fromEntries(goroutineLabels(fixture('gopanic/gopanic.mfl'), ids)), { '0': 'main', '0.1': 'divide', '0.2': 'divide' });
  });

  it('a go in a loop or a branch ends what can be known; spawns before it stay labelled', () => {
    const ids = ['0.1', '0.2', '0.3'];
    assert.deepEqual(labels('func a(){}\nfunc b(){}\nfunc main(){go a() for i:=0 {go b()} go a()}', ids), { '0.1': 'a' });
    assert.deepEqual(labels('func a(){}\nfunc b(){}\nfunc main(){go a() if x {go b()} else {go a()}}', ids), { '0.1': 'a' });
    assert.deepEqual(labels('func a(){}\nfunc main(){select {case v:=<-c: go a()}}', ids), {});
    assert.deepEqual(labels('func a(){}\nfunc b(){}\nfunc main(){if x {y:=1} go a() while z {w:=1} go b()}', ids), { '0.1': 'a', '0.2': 'b' });
  });

  it('spawns by a called function count on the caller (machin numbers them per goroutine)', () => {
    const ids = ['0.1', '0.2', '0.3'];
    assert.deepEqual(labels('func a(){}\nfunc b(){}\nfunc start(){go b()}\nfunc main(){go a() start() go a()}', ids), { '0.1': 'a', '0.2': 'b', '0.3': 'a' });
    assert.deepEqual(labels('func a(){}\nfunc b(){}\nfunc start(){go b()}\nfunc main(){go a() if q {start()} go a()}', ids), { '0.1': 'a' });
    // A call of a helper that spawns nothing is harmless anywhere.
    assert.deepEqual(labels('func a(){}\nfunc h(){x:=1}\nfunc main(){for {h()} go a()}', ids), { '0.1': 'a' });
    // Recursion that spawns cannot be unrolled.
    assert.deepEqual(labels('func a(){}\nfunc r(){go a() r()}\nfunc main(){r()}', ids), { '0.1': 'a' });
  });

  it('function literals: launched ones are named like Go (main.func1); one that spawns and is stored ends what is known', () => {
    assert.deepEqual(labels('func a(){}\nfunc main(){go func(){go a()}() go a()}', ['0.1', '0.2', '0.1.1']), { '0.1': 'main.func1', '0.2': 'a', '0.1.1': 'a' });
    assert.deepEqual(labels('func a(){}\nfunc main(){go a() f:=func(){go a()} f() go a()}', ['0.1', '0.2', '0.3']), { '0.1': 'a' });
  });

  it('composite literals in loop headers do not confuse blocks', () => {
    assert.deepEqual(labels('type P struct { x int }\nfunc a(){}\nfunc main(){for _, v := range []int{1,2} {x:=v} p := P{1} go a()}', ['0.1']), { '0.1': 'a' });
  });

  it('no main, a cut source, ids that are not paths: no labels, no throw', () => {
    assert.deepEqual(labels('func a(){go a()}', ['0', '0.1']), {});
    assert.deepEqual(labels('func main(){go a(', ['0', '0.1', '1', 'x', '0.0']), { '0': 'main' });
  });
});

describe('functions used as values', () => {
  it('a spawning function passed as a value ends what is known; a non-spawning one does not', () => {
    const ids = ['0.1', '0.2'];
    assert.deepEqual(labels('func a(){}\nfunc w(){go a()}\nfunc run(g){g()}\nfunc main(){go a() run(w) go a()}', ids), { '0.1': 'a' });
    assert.deepEqual(labels('func a(){}\nfunc w(){x:=1}\nfunc run(g){g()}\nfunc main(){go a() run(w) go a()}', ids), { '0.1': 'a', '0.2': 'a' });
  });
});
