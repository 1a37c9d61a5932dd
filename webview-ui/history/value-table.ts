// The table of values (op, thread, value), virtualized: only the rows in view exist in the DOM,
// so a variable set a million times scrolls as smoothly as one set three times. One focusable
// grid; arrows move the active row, Enter (or a click) moves the debug session there.
import { h } from '../shared/dom';
import type { HistoryData } from './history-data';

const ROW_HEIGHT = 22;

export class ValueTable {
  readonly element: HTMLElement;
  private body: HTMLElement;
  private spacer: HTMLElement;
  private active = -1;
  private current = -1;
  private readonly bySource: boolean;
  private readonly depths: boolean;

  constructor(private data: HistoryData, private onGoto: (row: number) => void, private onActive: (row: number) => void) {
    this.spacer = h('div', { class: 'table-spacer' });
    this.body = h('div', { class: 'table-rows', role: 'rowgroup' });
    this.spacer.appendChild(this.body);
    // At source level a row is a store by a statement (where, which goroutine, how deep), else an op.
    this.bySource = data.model.stores !== undefined;
    this.depths = data.hasDepths();
    const header = h('div', { class: 'table-row table-head', role: 'row' },
      this.bySource ? h('span', { role: 'columnheader', class: 'cell statement' }, 'statement') : h('span', { role: 'columnheader', class: 'cell op' }, 'op'),
      h('span', { role: 'columnheader', class: 'cell thread' }, 'thread'),
      this.depths ? h('span', { role: 'columnheader', class: 'cell depth' }, 'depth') : null,
      h('span', { role: 'columnheader', class: 'cell value' }, 'value'),
    );
    this.element = h('div', {
      class: 'value-table',
      role: 'grid',
      tabindex: '0',
      'aria-label': `Values of ${data.model.name}: ${data.count} rows. Arrow keys move, Enter goes ${data.model.stores ? 'just after the statement that stored it' : 'to the op'}.`,
      'aria-rowcount': data.count + 1,
    }, header, this.spacer);
    this.spacer.style.height = `${data.count * ROW_HEIGHT}px`;
    this.element.addEventListener('scroll', () => this.render());
    this.element.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('[data-row]');
      if (!row) return;
      const i = Number(row.dataset.row);
      this.setActive(i, false);
      this.onGoto(i);
    });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.render()).observe(this.element);
  }

  get scrollTop(): number {
    return this.element.scrollTop;
  }

  set scrollTop(v: number) {
    this.element.scrollTop = v;
    this.render();
  }

  /** Highlight the row in effect at the cursor and keep it in view. */
  setCurrent(row: number): void {
    this.current = row;
    if (row >= 0) this.reveal(row);
    this.render();
  }

  setActive(row: number, reveal = true): void {
    if (row < 0 || row >= this.data.count) return;
    this.active = row;
    if (reveal) this.reveal(row);
    this.render();
    this.onActive(row);
  }

  private reveal(row: number): void {
    const top = row * ROW_HEIGHT;
    const head = ROW_HEIGHT;
    const view = this.element.clientHeight - head;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (top + ROW_HEIGHT > this.element.scrollTop + view) this.element.scrollTop = top + ROW_HEIGHT - view;
  }

  private onKey(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.element.clientHeight / ROW_HEIGHT) - 2);
    const at = this.active < 0 ? (this.current >= 0 ? this.current : 0) : this.active;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) this.setActive(Math.max(0, Math.min(this.data.count - 1, (this.active < 0 ? at - moves[e.key] : at) + moves[e.key])));
    else if (e.key === 'Home') this.setActive(0);
    else if (e.key === 'End') this.setActive(this.data.count - 1);
    else if (e.key === 'Enter' && this.active >= 0) this.onGoto(this.active);
    else return;
    e.preventDefault();
  }

  render(): void {
    const d = this.data;
    const first = Math.max(0, Math.floor(this.element.scrollTop / ROW_HEIGHT) - 5);
    const last = Math.min(d.count, Math.ceil((this.element.scrollTop + this.element.clientHeight) / ROW_HEIGHT) + 5);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const cls = ['table-row'];
      if (i === this.current) cls.push('current');
      if (i === this.active) cls.push('active');
      const row = h('div', {
        class: cls.join(' '),
        role: 'row',
        'data-row': i,
        'aria-rowindex': i + 2,
        'aria-current': i === this.current ? 'true' : undefined,
        'aria-selected': i === this.active ? 'true' : undefined,
        id: `row-${i}`,
      },
        this.bySource ? h('span', { role: 'gridcell', class: 'cell statement' }, d.statementLabel(i)) : h('span', { role: 'gridcell', class: 'cell op' }, d.opLabel(i).replace(/^op /, '')),
        h('span', { role: 'gridcell', class: 'cell thread' }, d.threadLabel(i)),
        this.depths ? h('span', { role: 'gridcell', class: 'cell depth' }, String(d.model.stores!.depth[i])) : null,
        d.model.values[i] === ''
          ? h('span', { role: 'gridcell', class: 'cell value empty', 'aria-label': 'empty string' }, '(empty)')
          : h('span', { role: 'gridcell', class: 'cell value' }, d.model.values[i]),
        // machin may not print this value in another replay: a badge beside it, the value unchanged
        d.model.thisReplayOnly?.[i] ? h('span', { role: 'gridcell', class: 'cell badge', title: 'machin printed this value in this replay; it may not in another (it was stored after the last point its goroutine is known to reach before the run ended)' }, 'this replay only') : null,
      );
      row.style.top = `${i * ROW_HEIGHT}px`;
      rows.push(row);
    }
    this.body.replaceChildren(...rows);
    if (this.active >= first && this.active < last) this.element.setAttribute('aria-activedescendant', `row-${this.active}`);
    else this.element.removeAttribute('aria-activedescendant');
  }
}
