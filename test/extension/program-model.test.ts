// The timeline model's program fields (issue 14, point 5), built on the host from a recording the
// real machin replayed against its program: per schedule op the statement's line and column and
// the op it did there, in typed arrays; absent without source level.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { OP_WORDS, programModel } from '../../extension/view-models/program-model';
import { mflProgram } from '../../replay-engine/machin/mfl-program';
import { timelineModel } from '../../extension/view-models/timeline-model';
import { readRecording } from '../../replay-engine/open';
import { packModel, unpackModel } from '../../webview-ui/protocol';
import { bankRecording, type SourceLevelRecording } from '../webview/harness/source-level';

/** The op words of a one-line program that is one statement, as the program model reads them. */
const words = (text: string) => [...mflProgram(text, '/p.mfl').opsOf(1, 1, 1, text.length + 1)].map((w) => OP_WORDS[w]);

describe('the op a statement does, from its text (the program model)', () => {
  it('names receives, sends, selects, closes and prints in the order they run', () => {
    assert.deepEqual(words('v := <-ch'), ['recv']);
    assert.deepEqual(words('ch <- i * 10'), ['send']);
    assert.deepEqual(words('out <- <-in'), ['recv', 'send']);
    assert.deepEqual(words('println(str(<-ch))'), ['recv', 'println']);
    assert.deepEqual(words('total = <-a + <-b'), ['recv', 'recv']);
    assert.deepEqual(words('results[i] <- x'), ['send']);
    assert.deepEqual(words('f(x) <- 1'), ['send']);
    assert.deepEqual(words('select { case x := <-done: println(str(x)) default: n = n + 1 }'), ['select']);
    assert.deepEqual(words('close(ch)'), ['close']);
    assert.deepEqual(words('print("a <- b")'), ['print']);
    assert.deepEqual(words('total = total + v'), []);
    assert.deepEqual(words('x := "unterminated'), []);
  });
});

describe('program fields of the timeline model, with the real machin', () => {
  let bank: SourceLevelRecording;
  before(async () => {
    bank = await bankRecording();
  });
  after(() => bank?.dispose());

  it('has the statement and op of every schedule op, as the program reads', () => {
    const model = timelineModel(bank.recording);
    const p = model.program;
    assert.ok(p, 'source level gives the program fields');
    assert.equal(p.fileName, 'bank.mfl');
    assert.equal(p.path, bank.program);
    assert.ok(p.stepLine instanceof Uint16Array && p.stepColumn instanceof Uint16Array && p.stepOp instanceof Uint8Array);
    // machin recorded the real run's order; each goroutine's own ops are fixed by the program.
    const schedule = readFileSync(bank.trace, 'utf8').split('\n').filter((l) => l.startsWith('S ')).map((l) => l.slice(2));
    assert.equal(p.stepLine.length, schedule.length);
    const expected: Record<string, string[]> = {
      '0.1': ['send 4:9', 'send 4:9', 'send 4:9', 'close 7:5', 'send 8:5'],
      '0': ['recv 17:9', 'recv 17:9', 'recv 17:9', 'select 21:5', 'println 21:32', 'println 22:5'],
    };
    const got: Record<string, string[]> = { '0.1': [], '0': [] };
    schedule.forEach((g, k) => got[g].push(`${p.opWords[p.stepOp[k]]} ${p.stepLine[k]}:${p.stepColumn[k]}`));
    assert.deepEqual(got, expected);
    // Packed and unpacked as the view gets it: still typed.
    const back = unpackModel(packModel(model)).program!;
    assert.ok(back.stepLine instanceof Uint16Array && back.stepOp instanceof Uint8Array);
    assert.deepEqual([...back.stepLine], [...p.stepLine]);
    assert.deepEqual(back.opWords, p.opWords);
  });

  it('keeps the lines without the op words (ops unknown), and is absent without source level', async () => {
    assert.ok(bank.recording.programWords, 'the bridge keeps the op words with the statements');
    const p = programModel(bank.recording, null)!;
    assert.ok([...p.stepLine].every((l) => l > 0));
    assert.ok([...p.stepOp].every((o) => o === 0));
    const plain = await readRecording(bank.trace);
    assert.equal(timelineModel(plain).program, undefined);
  });
});
