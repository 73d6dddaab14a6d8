// The search match the panel was opened at: the message's blocks as rows, the matched one highlighted and scrolled to.
import type { FocusView } from '../src/protocol/messages';
import { h } from './dom';
import { renderItemHeader, renderItemRow } from './itemRows';

/** The snippet with its match in a <mark> (text nodes only: transcript text is never parsed as markup). */
function snippetLine(s: FocusView['target']['snippet']): HTMLElement {
  const start = Math.max(0, Math.min(s.start, s.text.length));
  const end = Math.max(start, Math.min(s.end, s.text.length));
  return h('p', { class: 'focus-snippet' },
    document.createTextNode(s.text.slice(0, start)), h('mark', { text: s.text.slice(start, end) }), document.createTextNode(s.text.slice(end)));
}

/**
 * The card, and the element to scroll to (the matched row, else the card). `onClose` removes the card; `onJump`
 * opens a row's line in the transcript, as every item row does.
 */
export function renderFocusCard(f: FocusView, onJump: (line: number) => void, onClose: () => void): { card: HTMLElement; target: HTMLElement } {
  const close = h('button', { class: 'focus-close', text: '×', title: 'Close the search match', attrs: { 'aria-label': 'Close the search match' } });
  close.addEventListener('click', onClose);
  const heading = h('h2', { text: f.found ? `Search match — message ${f.target.message + 1} of ${f.messages} · ${f.target.kind}` : `Search match — message ${f.target.message + 1} is not in this session any more` });
  const card = h('section', { class: 'card focus-card', attrs: { 'data-message': String(f.target.message), tabindex: '-1' } },
    h('div', { class: 'title-row' }, heading, close), snippetLine(f.target.snippet));
  if (!f.found) {
    card.append(h('p', { class: 'note', text: 'The transcript changed since it was searched: search again to find the match where it is now.' }));
    return { card, target: card };
  }
  let target: HTMLElement = card;
  const rows = f.rows.map((row) => {
    const el = renderItemRow(row, onJump);
    if (row.line === f.line && target === card) {
      el.classList.add('hit');
      el.setAttribute('aria-current', 'true');
      target = el;
    }
    return el;
  });
  const what = f.rows.length > 0 && f.rows.every((r) => r.kind === 'tool_result') ? 'Tool results sent back to the model' : f.role === 'assistant' ? 'The agent\'s message' : f.role === 'user' ? 'The user\'s message' : 'A message';
  card.append(h('p', { class: 'note', text: `${what}: ${f.rows.length} ${f.rows.length === 1 ? 'block' : 'blocks'}, the match highlighted. Click a row to open its line in the transcript.` }),
    h('div', { class: 'item-list focus-rows' }, renderItemHeader(), ...rows));
  return { card, target };
}
