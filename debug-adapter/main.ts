// The standalone debug adapter: `node dist/debug-adapter.js` speaks DAP over stdin/stdout, for any
// DAP client. The extension runs the same session inline (see session.ts). Keys come from the
// TIN_REPLAY_KEY environment variable or the `frozenRun/setKey` request.
import { DebugSession } from '@vscode/debugadapter';
import { stopAllProcesses } from '../replay-engine/toolchain/run-process';
import { FrozenRunSession } from './session';

class StandaloneSession extends FrozenRunSession {
  constructor() {
    super({});
  }
}

DebugSession.run(StandaloneSession as unknown as typeof DebugSession);

// Killed by its client or a terminal: toolchain groups are stopped and waited for before the exit.
for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
  process.once(signal, () => void stopAllProcesses().finally(() => process.exit(code)));
}
