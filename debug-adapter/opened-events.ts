// What the client is told once a recording is opened: its warnings and that it is best effort (in
// the console), the toolchain's outcome, its threads and the panic's causal chain (custom events).
import { Event, OutputEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Recording } from '../replay-engine/model/recording';
import { EVENT } from './contract';
import { causalChainBody, threadsBody, toolchainOutcome } from './reports';

/** `toolchainRun`: the launch let the toolchain run (not `noToolchain`), so its outcome is told. */
export function openedEvents(rec: Recording, toolchainRun: boolean): DebugProtocol.Event[] {
  const out: DebugProtocol.Event[] = rec.warnings.map((w) => new OutputEvent(`${w.line ? `line ${w.line}: ` : ''}${w.message}\n`, 'console'));
  if (rec.bestEffort) out.push(new OutputEvent('Best-effort recording (the program uses FFI): a replay may diverge from the recorded run.\n', 'console'));
  if (toolchainRun) out.push(new Event(EVENT.toolchain, toolchainOutcome(rec)));
  out.push(new Event(EVENT.threads, threadsBody(rec)));
  const chain = causalChainBody(rec);
  if (chain) out.push(new Event(EVENT.causalChain, chain));
  return out;
}
