// The served document's text for `source` requests (sources.ts): one read at a time, requests that
// come while it is under way share it (one copy); kept between requests only for a capsule's
// decoded document (keepText), a trace is read again each time.
import { RecordingError } from '../replay-engine/model/errors';
import type { Recording } from '../replay-engine/model/recording';
import { RuntimeRefusal } from './runtime';
import { keepText, sourceText } from './sources';

export class ServedText {
  private text: Promise<string> | undefined;

  /** The text of `rec`'s served document, or the refusal that it cannot be read. */
  async of(rec: Recording): Promise<string> {
    try {
      const content = await (this.text ??= sourceText(rec));
      if (!keepText(rec)) this.text = undefined;
      return content;
    } catch (e) {
      this.text = undefined;
      throw new RuntimeRefusal(1021, e instanceof RecordingError ? e.message : `${rec.timeline.file}: cannot read: ${(e as Error).message}`);
    }
  }

  /** Another recording was opened: its text is read anew. */
  forget(): void {
    this.text = undefined;
  }
}
