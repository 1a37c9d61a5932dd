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
 * Where the cursor is once `position` steps have completed, said as the op just done: `after op
 * 15/16` for position 16 (ops are 0..15); before any op completed, `before op 0/16`. (Never `after
 * op 16/16`: there is no op 16.)
 */
export function afterPosition(position: number, total: number, unit: string): string {
  return position <= 0 ? `before ${unit} 0/${total}` : `after ${unit} ${position - 1}/${total}`;
}

/**
 * Where a source statement ran, given the steps done when it ran: between two ops, so `before op
 * 5/22` (5 done), or `after op 21/22` once every op is done; the same words as an I/O record's,
 * which is consumed at the same place.
 */
export function statementPlace(position: number, total: number, unit: string): string {
  return ioPlace(position, total, unit);
}
