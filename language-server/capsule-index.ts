// The index of a decoded capsule document: the text the engine renders for a capsule
// (replay-engine/tcap/document.ts, served by the extension and the debug adapter) with a header
// block of `Label: value` facts and one line per effect, `#SEQ task T  KIND  KEY → RESULT`.
// The language server never sees the capsule or its key, only this text, so it reads the lines
// the engine wrote. Generated documents are replaced whole, so the index is rebuilt per change.
import { KNOWN_KINDS } from '../replay-engine/tcap/format';
import { CAPSULE_LANGUAGE, CAPSULE_SCHEME } from './protocol';
import type { PlacedProblem } from './trace-index';
import { Severity } from './trace-line';

export const CAPSULE_TITLE = '# Tin capsule ';
const EFFECT = /^#(\d+) task (\d+) {2}(\S+) {2}(.*)$/;

export interface CapsuleEffect {
  line: number;
  seq: number;
  task: number;
  kind: string;
  /** The key as the engine decoded it ('' when the kind has none). */
  key: string;
  /** The result or the fault, as the engine decoded it. */
  result: string;
  fault: boolean;
}

export interface CapsuleFact {
  line: number;
  label: string;
  value: string;
}

/** The decoded document: its scheme, its language (the adapter's `debug:` copy), or its first line. */
export function looksLikeCapsuleDocument(uri: string, languageId: string, text: string): boolean {
  return uri.startsWith(`${CAPSULE_SCHEME}:`) || languageId === CAPSULE_LANGUAGE || text.startsWith(CAPSULE_TITLE);
}

export class CapsuleIndex {
  readonly effects: CapsuleEffect[] = [];
  /** Effect index by line, -1 for other lines. */
  readonly effectAtLine: Int32Array;
  readonly facts: CapsuleFact[] = [];
  readonly problems: PlacedProblem[] = [];
  readonly lines: number;
  /** Effects per task number. */
  readonly taskEffects = new Map<number, number[]>();
  private readonly lineLengths: Uint32Array;
  private readonly text: string[];

  constructor(text: string) {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    this.lines = lines.length;
    this.text = lines;
    this.effectAtLine = new Int32Array(lines.length).fill(-1);
    this.lineLengths = new Uint32Array(lines.length);
    let inHeader = true;
    for (let line = 0; line < lines.length; line++) {
      const raw = lines[line].replace(/\r$/, '');
      this.lineLengths[line] = raw.length;
      if (raw.startsWith('#') && /^#\d/.test(raw)) {
        inHeader = false;
        this.effectLine(line, raw);
      } else if (inHeader) {
        const m = /^([A-Z][A-Za-z ]*): (.*)$/.exec(raw);
        if (m) this.facts.push({ line, label: m[1], value: m[2] });
      } else if (raw.trim() !== '') {
        this.problem(line, 0, raw.length, Severity.Error, 'malformed', 'Not an effect line: a capsule document lists one effect per line, `#SEQ task T  KIND  KEY → RESULT`.');
      }
    }
    if (!lines[0].startsWith(CAPSULE_TITLE)) {
      // The extension serves `# MESSAGE` when the capsule cannot be read (no key, wrong key...).
      const served = /^# (.+)$/.exec(lines[0]);
      this.problem(0, 0, lines[0].length, Severity.Error, served ? 'capsule-unreadable' : 'not-a-capsule-document', served
        ? `The capsule could not be decoded: ${served[1]}`
        : 'Not a decoded Tin capsule: the document Frozen Run renders starts with `# Tin capsule NAME`. Open the `.tcap` file itself to decode it.');
    }
    const panic = this.fact('Panic');
    if (panic && this.effects.length > 0) {
      const last = this.effects[this.effects.length - 1];
      this.problem(last.line, 0, this.lineLengths[last.line], Severity.Information, 'panic', `The request panicked after this effect, its last (task ${last.task}): ${panic.value}`);
    }
  }

  private effectLine(line: number, raw: string): void {
    const m = EFFECT.exec(raw);
    if (!m) {
      this.problem(line, 0, raw.length, Severity.Error, 'malformed', 'Malformed effect line: expected `#SEQ task T  KIND  KEY → RESULT`.');
      return;
    }
    const seq = Number(m[1]);
    const task = Number(m[2]);
    const kind = m[3];
    const rest = m[4];
    const arrow = rest.startsWith('→ ') ? 0 : rest.indexOf(' → ');
    const key = arrow <= 0 ? '' : rest.slice(0, arrow);
    const result = arrow < 0 ? rest : rest.slice(arrow === 0 ? 2 : arrow + 3);
    const fault = /^(fault|cancelled): /.test(result);
    const n = this.effects.length;
    if (seq !== n) {
      this.problem(line, 1, 1 + m[1].length, Severity.Error, 'bad-seq', `Effect numbered #${seq} where #${n} was expected: effects are numbered 0, 1, 2, ... in the order they completed.`);
    }
    if (!KNOWN_KINDS.has(kind)) {
      const at = raw.indexOf(kind, 1 + m[1].length);
      this.problem(line, at, at + kind.length, Severity.Error, 'unknown-kind', `Unknown effect kind \`${kind}\`: Tin's format (formats/tcap.md) has no such kind, so it cannot be shown faithfully.`);
    }
    if (fault) {
      const at = raw.length - result.length;
      this.problem(line, at, raw.length, Severity.Information, 'fault', `Effect #${seq} (${kind}) ended in a ${result.startsWith('cancelled') ? 'cancellation' : 'fault'}: ${result.slice(result.indexOf(': ') + 2)}`);
    }
    this.effectAtLine[line] = n;
    this.effects.push({ line, seq, task, kind, key, result, fault });
    const list = this.taskEffects.get(task);
    if (list) list.push(n);
    else this.taskEffects.set(task, [n]);
  }

  private problem(line: number, start: number, end: number, severity: Severity, code: string, message: string): void {
    this.problems.push({ line, start, end, severity, code, message });
  }

  fact(label: string): CapsuleFact | undefined {
    return this.facts.find((f) => f.label === label);
  }

  factAtLine(line: number): CapsuleFact | undefined {
    return this.facts.find((f) => f.line === line);
  }

  lineText(line: number): string {
    return (this.text[line] ?? '').replace(/\r$/, '');
  }

  lineLength(line: number): number {
    return line < this.lines ? this.lineLengths[line] : 0;
  }

  allProblems(): PlacedProblem[] {
    return [...this.problems].sort((a, b) => a.line - b.line || a.start - b.start);
  }

  /** Runs of consecutive effects by one task: [firstLine, lastLine, task] triples. */
  runs(): number[] {
    const out: number[] = [];
    let start = 0;
    for (let i = 1; i <= this.effects.length; i++) {
      const prev = this.effects[i - 1];
      const cur = this.effects[i];
      if (!cur || cur.task !== prev.task || cur.line !== prev.line + 1) {
        out.push(this.effects[start].line, prev.line, prev.task);
        start = i;
      }
    }
    return out;
  }
}
