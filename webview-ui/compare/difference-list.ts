// The places where the runs differ as a list of buttons under the views (the first ones), for
// keyboard and screen-reader users and for a quick overview: each says where it is on both sides
// and selects it when pressed.
import { h } from '../shared/dom';
import type { TimelineIndex } from '../timeline/model-index';
import type { AlignmentMsg, CompareSide } from './protocol';

const SHOWN = 50;

export function differenceList(
  al: AlignmentMsg,
  index: Record<CompareSide, TimelineIndex>,
  select: (side: CompareSide, record: number) => void,
): HTMLElement {
  const count = al.hunks.length / 4;
  const list = h('ol', { class: 'differences', 'aria-label': 'Places where the runs differ' });
  for (let i = 0; i < Math.min(count, SHOWN); i++) {
    const [a0, a1, b0, b1] = [al.hunks[i * 4], al.hunks[i * 4 + 1], al.hunks[i * 4 + 2], al.hunks[i * 4 + 3]];
    const side: CompareSide = a1 > a0 ? 'a' : 'b';
    const button = h('button', { type: 'button', class: 'difference', 'data-hunk': i }, `${place(index.a, a0, a1, 'A')}  |  ${place(index.b, b0, b1, 'B')}`);
    button.addEventListener('click', () => select(side, side === 'a' ? a0 : b0));
    list.append(h('li', {}, button));
  }
  const title = count === 0 ? 'The runs do not differ.' : `${count} place${count === 1 ? '' : 's'} differ${count === 1 ? 's' : ''}${count > SHOWN ? ` (the first ${SHOWN} listed; N and P step through all)` : ''}:`;
  return h('section', { class: 'difference-section' }, h('div', { class: 'difference-title' }, title), list);
}

function place(index: TimelineIndex, start: number, end: number, side: string): string {
  const unit = index.model.traits.units.step;
  const at = `${side} ${unit} ${index.stepsBefore(start)}`;
  if (end === start) return `${at}: nothing`;
  const first = index.model.summaries?.[start] ?? `${index.laneLabel(index.model.recordThread[start])}`;
  return `${at}: ${first}${end - start > 1 ? ` (+${end - start - 1} more)` : ''}`;
}
