// The value texts of the statement probes' parse.
import { Column } from '../../model/int-column';
import { SMALL_INT } from '../../model/probe-histories';

/**
 * Value texts as machin printed them, most of them small integers: those kept as numbers (4 bytes,
 * not a string each), the others as strings. `get` gives the same text back.
 */
export class TextColumn {
  private readonly numbers = new Column();
  /** Per entry: -1 for a number, else its index in `texts`. */
  private readonly textAt = new Column();
  private readonly texts: string[] = [];
  get length(): number {
    return this.numbers.length;
  }
  push(text: string): void {
    if (text.length <= 10 && SMALL_INT.test(text)) {
      this.numbers.push(Number(text));
      this.textAt.push(-1);
    } else {
      this.numbers.push(0);
      this.textAt.push(this.texts.length);
      this.texts.push(text);
    }
  }
  get(i: number): string {
    const t = this.textAt.get(i);
    return t < 0 ? String(this.numbers.get(i)) : this.texts[t];
  }
}
