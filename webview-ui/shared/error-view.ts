// The one message a view shows instead of itself (wrong key, unreadable data): text only.
import { custom, h } from './dom';

/** A button under the message, for what fixes it (Set Key...). */
export interface ErrorAction {
  label: string;
  id: string;
  run(): void;
}

export function renderError(message: string, title = 'Frozen Run cannot show this recording', actions: ErrorAction[] = []): HTMLElement {
  const view = h('div', { class: 'error-view', role: 'alert' }, h('h2', {}, title), message);
  if (actions.length) {
    const bar = h('div', { class: 'error-actions' });
    for (const a of actions) {
      const b = custom('vscode-button', { 'data-command': a.id }, a.label);
      b.addEventListener('click', () => a.run());
      bar.appendChild(b);
    }
    view.appendChild(bar);
  }
  return view;
}
