// The standalone debug adapter: `node dist/debug-adapter.js` speaks DAP over stdin/stdout, for any
// DAP client. The extension runs the same session inline (see session.ts). Keys come from the
// TIN_REPLAY_KEY environment variable or the `frozenRun/setKey` request.
import { DebugSession } from '@vscode/debugadapter';
import { removeAllPrivateDirsNow } from '../replay-engine/machin/private-temp';
import { killAllProcessesNow, stopAllProcesses } from '../replay-engine/toolchain/run-process';
import { FrozenRunSession } from './session';

class StandaloneSession extends FrozenRunSession {
  constructor() {
    super({});
  }
}

DebugSession.run(StandaloneSession as unknown as typeof DebugSession);

/**
 * Killed by its client or a terminal: toolchain groups are stopped and waited for, then the
 * temporary copies (trace copies, instrumented programs, machin's TMPDIR in them) are removed,
 * then the exit. A second signal, or a stop that takes more than a few seconds, kills the groups at once.
 */
let stopping = false;
for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
  process.on(signal, () => {
    const now = () => {
      killAllProcessesNow();
      removeAllPrivateDirsNow();
      process.exit(code);
    };
    if (stopping) return now();
    stopping = true;
    const late = setTimeout(now, 5_000);
    void stopAllProcesses().finally(() => {
      clearTimeout(late);
      removeAllPrivateDirsNow();
      process.exit(code);
    });
  });
}
