// The words every view uses for where a record or a value is, numbered as ARCHITECTURE.md's
// vocabulary numbers them: steps (ops, effects) 0..N-1, positions 0..N (steps done). The status
// bar, the timeline's details and the history say the same thing for the same moment.

/**
 * Where an I/O record lies: it is consumed before the step at its position, `before op 5/22`;
 * one read after the last step has no step after it, `after op 21/22`.
 */
export function ioPlace(position: number, total: number, unit: string): string {
  return position < total ? `before ${unit} ${position}/${total}` : `after ${unit} ${total - 1}/${total}`;
}

/**
 * A value placed at position p (set once p steps had completed) is there when the cursor is on
 * step p-1, as the status bar numbers it: `op 5` for position 6; `start` for position 0.
 */
export function stepAtPosition(position: number, unit: string): string {
  return position <= 0 ? 'start' : `${unit} ${position - 1}`;
}

/**
 * Where a source statement ran, given the steps done when it ran: between two ops, so `before op
 * 5/22` (5 done), or `after op 21/22` once every op is done; the same words as an I/O record's,
 * which is consumed at the same place.
 */
export function statementPlace(position: number, total: number, unit: string): string {
  return ioPlace(position, total, unit);
}
