// The one message a view shows instead of itself (wrong key, unreadable data): text only.
import { h } from './dom';

export function renderError(message: string, title = 'Frozen Run cannot show this recording'): HTMLElement {
  return h('div', { class: 'error-view', role: 'alert' }, h('h2', {}, title), message);
}
