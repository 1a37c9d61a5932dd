// A recording with statements for the timeline's source-level labels (issue 14, point 5): a small
// bank program recorded here with the real machin 0.137.0, then opened as the extension opens it
// (enriched at source level by the instrumented replay).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecording } from '../../../replay-engine/open';
import type { Recording } from '../../../replay-engine/model/recording';
import { machinPath, recordProgram } from '../../support/machin';

/** Its ops: sends at 4:9, the close at 7:5, the done send at 8:5, receives at 17:9, the select at 21:5, prints at 21:32 and 22:5. */
export const BANK = `func teller(ch, done, n) {
    i := 0
    for i < n {
        ch <- i * 10
        i = i + 1
    }
    close(ch)
    done <- 1
}
func main() {
    ch := make(chan int)
    done := make(chan int)
    go teller(ch, done, 3)
    total := 0
    got := 0
    for got < 3 {
        v := <-ch
        total = total + v
        got = got + 1
    }
    select { case d := <-done: println("done " + str(d)) }
    println("total " + str(total))
}
`;

export interface SourceLevelRecording {
  recording: Recording;
  program: string;
  trace: string;
  dispose(): void;
}

export async function bankRecording(): Promise<SourceLevelRecording> {
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-bank-'));
  const { program, trace } = recordProgram(dir, 'bank', BANK);
  const recording = await openRecording(trace, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 60_000 });
  if (recording.sourceLevel?.state !== 'ready') throw new Error(`no source level: ${JSON.stringify(recording.sourceLevel)} ${JSON.stringify(recording.warnings)}`);
  return { recording, program, trace, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
