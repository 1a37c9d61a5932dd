// An instrumented replay that does not end as the plain one is not trusted, and says why.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReplayOutput } from '../../replay-engine/machin/machin-output';
import { instrumentedReplayDiffers } from '../../replay-engine/machin/source/trust-check';

const faithful = 'replay-verify: schedule 4/4 ops, io-underrun=no, boundary=faithful -> FAITHFUL\n';
const diverged = 'replay-verify: schedule 3/4 ops, io-underrun=no, boundary=faithful -> DIVERGED\n';
const panic = (g: string, op: number) => `panic: index out of range [12] with length 2\n  (replay: goroutine ${g}, schedule op ${op}/4)\n`;
const deadlock = (order: string[]) => `fatal: deadlock — all 2 goroutine(s) blocked, none can make progress:\n${order.map((g) => `  goroutine ${g}  waiting to receive on channel #0\n`).join('')}`;

describe('trusting an instrumented replay', () => {
  it('trusts one that ends as the plain replay, whatever order machin lists blocked goroutines in', () => {
    assert.equal(instrumentedReplayDiffers(parseReplayOutput(faithful), parseReplayOutput(faithful)), null);
    assert.equal(instrumentedReplayDiffers(parseReplayOutput(panic('0', 4)), parseReplayOutput(panic('0', 4))), null);
    const a = parseReplayOutput(deadlock(['0', '0.1']));
    assert.ok(a.deadlock, 'the deadlock form is recognised');
    assert.equal(instrumentedReplayDiffers(a, parseReplayOutput(deadlock(['0.1', '0']))), null);
  });

  it('names the verdict that changed', () => {
    const why = instrumentedReplayDiffers(parseReplayOutput(faithful), parseReplayOutput(diverged));
    assert.match(why ?? '', /verdict FAITHFUL \(schedule 4\/4\) became DIVERGED \(schedule 3\/4\)/);
    assert.match(why ?? '', /stepping stays at record level/);
  });

  it('compares panic ops by where they are shown, not by machin\'s racy counter', () => {
    // machin's P is its global counter when the panic ran: another goroutine can move it between replays
    const ownOps = (_g: string, op: number) => (op >= 3 ? 3 : 0);
    assert.equal(instrumentedReplayDiffers(parseReplayOutput(panic('0', 3)), parseReplayOutput(panic('0', 4)), ownOps), null);
    assert.match(instrumentedReplayDiffers(parseReplayOutput(panic('0', 3)), parseReplayOutput(panic('0', 4))) ?? '', /at op 3\/4 became .* at op 4\/4/);
    assert.match(instrumentedReplayDiffers(parseReplayOutput(panic('0', 1)), parseReplayOutput(panic('0', 4)), ownOps) ?? '', /after op 0\/4 became .* after op 3\/4/);
  });

  it('names a panic that moved or vanished', () => {
    assert.match(instrumentedReplayDiffers(parseReplayOutput(panic('0', 4)), parseReplayOutput(panic('0.1', 4))) ?? '', /in goroutine 0 at op 4\/4 became .* in goroutine 0\.1/);
    assert.match(instrumentedReplayDiffers(parseReplayOutput(panic('0', 4)), parseReplayOutput('')) ?? '', /became no panic/);
  });

  it('ops machin replayed past the recording\'s end change nothing: the whole schedule was done in order either way', () => {
    // machin 0.137.0 on one pool trace, plain replays: FAITHFUL, FAITHFUL, then this
    const past = 'replay-verify: schedule 600004/600002 ops, io-underrun=no, boundary=faithful -> DIVERGED\n';
    const whole = 'replay-verify: schedule 600002/600002 ops, io-underrun=no, boundary=faithful -> FAITHFUL\n';
    assert.equal(instrumentedReplayDiffers(parseReplayOutput(past), parseReplayOutput(whole)), null);
    assert.equal(instrumentedReplayDiffers(parseReplayOutput(whole), parseReplayOutput(past)), null);
    // a schedule left short, or an I/O underrun, is another ending
    const short = 'replay-verify: schedule 600001/600002 ops, io-underrun=no, boundary=faithful -> DIVERGED\n';
    assert.match(instrumentedReplayDiffers(parseReplayOutput(whole), parseReplayOutput(short)) ?? '', /verdict FAITHFUL \(schedule 600002\/600002\) became DIVERGED \(schedule 600001\/600002\)/);
    const underrun = 'replay-verify: schedule 600004/600002 ops, io-underrun=yes, boundary=faithful -> DIVERGED\n';
    assert.match(instrumentedReplayDiffers(parseReplayOutput(past), parseReplayOutput(underrun)) ?? '', /became DIVERGED/);
  });

  it('a run that ended with main short of ops after main\'s last is the same ending as one that went past', () => {
    // machin 0.137.0 on a 600k-op pool trace whose op 600005 was a worker's last receive, after
    // main's last op (600004): the plain replay said 600006/600005, the instrumented 600004/600005
    const verify = (done: number) => `replay-verify: schedule ${done}/600005 ops, io-underrun=no, boundary=faithful -> ${done === 600005 ? 'FAITHFUL' : 'DIVERGED'}\n`;
    const mainsLast = 600004;
    for (const [a, b] of [[600006, 600004], [600004, 600005], [600005, 600006]]) {
      assert.equal(instrumentedReplayDiffers(parseReplayOutput(verify(a)), parseReplayOutput(verify(b)), undefined, mainsLast), null, `${a} and ${b}`);
    }
    // short of main's last op: main itself did not get through its ops
    assert.match(instrumentedReplayDiffers(parseReplayOutput(verify(600006)), parseReplayOutput(verify(600003)), undefined, mainsLast) ?? '', /became DIVERGED \(schedule 600003\/600005\)/);
    // without main's last op known, only the whole schedule (or past it) is that ending
    assert.match(instrumentedReplayDiffers(parseReplayOutput(verify(600006)), parseReplayOutput(verify(600004))) ?? '', /became DIVERGED \(schedule 600004\/600005\)/);
  });
});
