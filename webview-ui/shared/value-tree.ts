// A DecodedValue tree as nested, natively collapsible <details> lists. Text only (textContent).
// Bounded: a recording can hold values of any size, the panel shows at most MAX_CHILDREN
// children per node and MAX_TEXT characters per value, and says how much it left out.
import type { DecodedValueMsg } from '../protocol';
import { h } from './dom';

const MAX_CHILDREN = 500;
const MAX_TEXT = 20_000;
const MAX_DEPTH = 32;

/** Render `value` under an optional name; nodes deeper than `openDepth` start collapsed. */
export function renderValue(value: DecodedValueMsg, name?: string, depth = 0, openDepth = 2): HTMLElement {
  const label = h('span', { class: 'value-line' },
    name !== undefined ? h('span', { class: 'value-name' }, name) : null,
    name !== undefined ? ': ' : null,
    h('span', { class: `value-text value-${safeClass(value.type)}` }, clip(String(value.text ?? ''))),
    value.type ? h('span', { class: 'value-type' }, String(value.type)) : null,
  );
  const children = Array.isArray(value.children) ? value.children : [];
  if (children.length === 0 || depth >= MAX_DEPTH) return h('div', { class: 'value-leaf' }, label);
  const details = h('details', { class: 'value-node', open: depth < openDepth }, h('summary', {}, label));
  const list = h('ul', { class: 'value-children' });
  for (const c of children.slice(0, MAX_CHILDREN)) list.appendChild(h('li', {}, renderValue(c.value, String(c.name), depth + 1, openDepth)));
  const total = Math.max(children.length, Number(value.more?.count) || 0);
  const shown = Math.min(children.length, MAX_CHILDREN);
  if (total > shown) {
    list.appendChild(h('li', { class: 'value-more' }, `… ${total - shown} more not shown${value.more ? " (the debugger's Variables view pages through all)" : ''}`));
  }
  details.appendChild(list);
  return details;
}

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT)}… (${text.length - MAX_TEXT} more characters)`;
}

function safeClass(type: string): string {
  return String(type).replace(/[^a-z0-9-]/gi, '').slice(0, 20) || 'plain';
}
