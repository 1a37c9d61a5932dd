// The variable history panel: pick a watched variable (or type a name), see every value it took
// with its op and thread, as a table and, for numbers, a chart; click a row to go there.
import './elements';
import baseCss from '../shared/base.css';
import historyCss from './history.css';
import { PROTOCOL_VERSION, unpackHistory, type HistoryModel, type HistoryToHost, type HostToHistory } from '../protocol';
import { clear, custom, h } from '../shared/dom';
import { adoptStyles } from '../shared/styles';
import { loadState, onHostMessage, postToHost, saveState } from '../shared/vscode-api';
import { renderError } from '../shared/error-view';
import { HistoryData } from './history-data';
import { ValueChart } from './value-chart';
import { ValueTable } from './value-table';

interface SavedState {
  name: string;
  scrollTop: number;
}

adoptStyles(baseCss, historyCss);
const root = document.getElementById('root') ?? document.body.appendChild(h('div', { id: 'root' }));
const send = (m: HistoryToHost) => postToHost(m);
const saved = loadState<SavedState>();

let names: string[] = [];
let selected = saved?.name ?? '';
let cursor: { position: number | null; seq: number | null } = { position: null, seq: null };
let shown: { data: HistoryData; table: ValueTable; chart: ValueChart | null } | null = null;
const live = h('div', { class: 'sr-only', 'aria-live': 'polite', role: 'status' });
const content = h('div', { class: 'history-content' });

function persist(): void {
  saveState<SavedState>({ name: selected, scrollTop: shown?.table.scrollTop ?? 0 });
}

function pick(name: string): void {
  const n = name.trim();
  if (!n) return;
  selected = n;
  persist();
  send({ type: 'pickVariable', name: n });
}

function renderPicker(): HTMLElement {
  const select = custom('vscode-single-select', { id: 'variable-select', 'aria-label': 'Watched variable' }) as HTMLElement & { value: string };
  select.appendChild(custom('vscode-option', { value: '' }, names.length ? '(choose a variable)' : '(no watched variables)'));
  for (const n of names) select.appendChild(custom('vscode-option', { value: n, selected: n === selected }, n));
  select.addEventListener('change', () => pick(select.value));
  const field = custom('vscode-textfield', { id: 'variable-name', placeholder: 'or type a name', 'aria-label': 'Variable name' }) as HTMLElement & { value: string };
  field.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter') pick(field.value);
  });
  const show = custom('vscode-button', { secondary: true }, 'Show');
  show.addEventListener('click', () => pick(field.value));
  return h('div', { class: 'picker' }, h('label', { for: 'variable-select' }, 'Variable'), select, field, show);
}

function renderAll(): void {
  clear(root);
  root.append(renderPicker(), content, live);
}

function showHistory(model: HistoryModel): void {
  const data = new HistoryData(model);
  selected = model.name;
  clear(content);
  content.className = 'history-content';
  const threads = data.threadCount();
  const summary = h('div', { class: 'summary' },
    h('strong', {}, model.name),
    data.count === 0
      ? ' never took a value in this run (only scalars and strings assigned in the program are recorded).'
      : ` took ${data.count} value${data.count === 1 ? '' : 's'} on ${threads} thread${threads === 1 ? '' : 's'}${model.stores ? `, each stored by a statement${model.stores.function ? ` of ${model.stores.function}` : ''} (click: just after it)` : ''}${data.numbers ? '' : ' (not all numbers: no chart)'}.`,
  );
  content.appendChild(summary);
  if (data.count === 0) {
    shown = null;
    return;
  }
  const goto = (row: number) => send(model.stores ? { type: 'goto', position: model.position[row], row } : { type: 'goto', position: model.position[row] });
  const announce = (row: number) => {
    live.textContent = `${model.stores ? data.statementLabel(row) : data.opLabel(row)}, ${data.threadLabel(row)}: ${model.values[row]}`;
  };
  const table = new ValueTable(data, goto, announce);
  const chart = data.numbers ? new ValueChart(data, data.numbers, goto) : null;
  if (chart) content.appendChild(chart.element);
  content.appendChild(table.element);
  table.element.addEventListener('scroll', persist);
  shown = { data, table, chart };
  table.render();
  if (saved?.name === model.name && saved.scrollTop) table.scrollTop = saved.scrollTop;
  applyCursor();
  persist();
  // Keep the picker in step with what is shown.
  const select = document.getElementById('variable-select') as (HTMLElement & { value: string }) | null;
  if (select && names.includes(model.name)) select.value = model.name;
}

function applyCursor(): void {
  if (!shown) return;
  shown.table.setCurrent(shown.data.rowAtCursor(cursor));
  shown.chart?.setCursor(shown.data.model.stores ? cursor.seq : cursor.position);
}

onHostMessage<HostToHistory>((m) => {
  switch (m.type) {
    case 'names': {
      if (m.version !== PROTOCOL_VERSION) {
        clear(root);
        root.appendChild(renderError(`This panel speaks protocol version ${PROTOCOL_VERSION} but the extension sent version ${m.version}. Reload the window after updating Frozen Run.`));
        return;
      }
      names = m.names;
      if (m.selected) selected = m.selected;
      const hadContent = content.childNodes.length > 0;
      renderAll();
      if (!hadContent && !m.selected && selected) send({ type: 'pickVariable', name: selected });
      if (!hadContent && !selected) content.appendChild(h('p', { class: 'empty-hint summary' }, 'Pick a watched variable, or type the name of any variable the program assigns.'));
      return;
    }
    case 'history': {
      if (m.version !== PROTOCOL_VERSION) return;
      let model: HistoryModel;
      try {
        model = unpackHistory(m.data);
      } catch (e) {
        clear(content);
        content.appendChild(renderError(`The history from the extension could not be read: ${e instanceof Error ? e.message : String(e)}`, 'Frozen Run cannot show this history'));
        return;
      }
      if (!root.contains(content)) renderAll();
      showHistory(model);
      return;
    }
    case 'cursor':
      cursor = { position: m.position, seq: m.seq ?? null };
      applyCursor();
      return;
    case 'error':
      clear(content);
      if (!root.contains(content)) renderAll();
      content.appendChild(renderError(m.message, 'Frozen Run cannot show this history'));
      return;
  }
});

renderAll();
send({ type: 'ready', version: PROTOCOL_VERSION });
