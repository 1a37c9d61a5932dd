// What the exception widget shows for a panic, a divergence or a faulted effect.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Recording } from '../replay-engine/model/recording';
import type { Stop } from './runtime';

/** How many threads of the causal chain the details show (the last ones, nearest the panic). */
const CHAIN_SHOWN = 200;

export function exceptionInfo(rec: Recording, stop: Stop): DebugProtocol.ExceptionInfoResponse['body'] {
  if (stop.exception === 'panic' && rec.panic) {
    const p = rec.panic;
    return {
      exceptionId: 'panic',
      description: p.message,
      breakMode: 'always',
      details: { message: p.message, typeName: 'panic', fullTypeName: `panic (${p.source})`, stackTrace: chainText(rec) },
    };
  }
  if (stop.exception === 'divergence') {
    // The text: machin --verify's verdict, or what the replay against another build reported.
    return { exceptionId: 'divergence', description: stop.text ?? stop.description, breakMode: 'always', details: { message: stop.text, typeName: 'divergence' } };
  }
  return { exceptionId: stop.exception ?? 'exception', description: stop.text ?? stop.description, breakMode: 'always', details: { message: stop.text, typeName: stop.exception } };
}

/** The causal chain: the thread of each op up to the panic (the last CHAIN_SHOWN of them). */
export function chainText(rec: Recording): string {
  const p = rec.panic!;
  const tl = rec.timeline;
  const ids = Array.from(p.causalChain.subarray(Math.max(0, p.causalChain.length - CHAIN_SHOWN)), (t) => tl.threads[t].id);
  const omitted = p.causalChain.length - ids.length;
  return `causal chain (${p.causalChain.length} ${tl.units.steps}, thread of each): ${omitted ? `… ${omitted} earlier, ` : ''}${ids.join(' → ')}`;
}
