// The words the views show for what a statement does (the timeline's op of each schedule step):
// named as machin's AST names the ops (ast.go: `Recv` for `<-ch`, `SendStmt` for `ch <- v`,
// `SelectStmt`, and the builtins `close`, `print`, `println`). The machin bridge reads them from
// the program (machin/mfl-program.ts) and keeps them on the recording with the statements.

/** OP_WORDS[0]: the op is not known from the text. */
export const OP_WORDS = ['op', 'recv', 'send', 'select', 'close', 'print', 'println'] as const;

export interface ProgramWords {
  /**
   * The ops (indexes into OP_WORDS) the statement spanning line:column to endLine:endColumn
   * (1-based, end just past it) does, in the order they run; empty when its text shows none.
   */
  opsOf(line: number, column: number, endLine: number, endColumn: number): readonly number[];
}
