// The value texts of the statement probes' parse.
import { ChunkedColumn } from '../../model/chunked-column';
import { SMALL_INT } from '../../model/probe-histories';

/**
 * Value texts as machin printed them, most of them small integers: those kept as numbers (4 bytes,
 * not a string each), the others as strings. `get` gives the same text back.
 */
export class TextColumn {
  /** Per entry: the number, or (a text) its index in `texts`. */
  private readonly numbers = new ChunkedColumn(true);
  /** Per entry: 1 for a text. */
  private readonly isText = new ChunkedColumn();
  private readonly texts: string[] = [];
  get length(): number {
    return this.numbers.length;
  }
  push(text: string): void {
    if (text.length <= 10 && SMALL_INT.test(text)) {
      this.numbers.push(Number(text));
      this.isText.push(0);
    } else {
      this.numbers.push(this.texts.length);
      this.isText.push(1);
      this.texts.push(text);
    }
  }
  /** A small integer (SMALL_INT) already read as a number: the same entry push(String(n)) makes. */
  pushNumber(n: number): void {
    this.numbers.push(n);
    this.isText.push(0);
  }
  /** Drops every text (the column is empty after). */
  release(): void {
    this.numbers.release();
    this.isText.release();
    this.texts.length = 0;
  }
  /** Entry i as its number when it was one (push of a SMALL_INT text, or pushNumber), else null. */
  numberAt(i: number): number | null {
    return this.isText.get(i) ? null : this.numbers.get(i);
  }
  get(i: number): string {
    return this.isText.get(i) ? this.texts[this.numbers.get(i)] : String(this.numbers.get(i));
  }
}
