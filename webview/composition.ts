// The Composition tab: kinds bar, tool list, per-turn line, largest items, and a clicked segment's items.
import { TERMS_LINE } from '../src/core/inspect/terms';
import type { CompositionView, FocusView, ItemFilter, ToWebview } from '../src/protocol/messages';
import type { WebviewApi } from './api';
import { renderKindBar } from './charts/stackedBar';
import { renderToolBars } from './charts/toolBars';
import { renderTurnLegend, renderTurnLine } from './charts/turnLine';
import { formatTokens, h } from './dom';
import { renderFocusCard } from './focusCard';
import { ItemList } from './itemList';
import { renderItemHeader, renderItemRow } from './itemRows';
import { KIND_LABEL } from './kinds';

type ItemsLoaded = Extract<ToWebview, { type: 'itemsLoaded' }>;

export interface CompositionTab {
  readonly element: HTMLElement;
  /** Draws a session; `selected` reopens a segment's list (restored state), if the session still has it. */
  show(view: CompositionView, selected?: ItemFilter): void;
  itemsLoaded(msg: ItemsLoaded): void;
  /** Shows a search match above the charts; resolves to the element to scroll to (the matched row or the card). */
  focus(f: FocusView): HTMLElement;
}

function section(title: string, ...body: Node[]): { root: HTMLElement; heading: HTMLElement; body: HTMLElement } {
  const heading = h('h2', { text: title });
  const content = h('div', { class: 'section-body' }, ...body);
  return { root: h('section', { class: 'card' }, heading, content), heading, body: content };
}

/** A selector for the focused segment control inside `root`, to focus its replacement after a redraw. */
function focusedControl(root: HTMLElement): string | undefined {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return undefined;
  for (const attr of ['data-kind', 'data-tool']) {
    const value = el.getAttribute(attr);
    if (value !== null) return `${el.tagName.toLowerCase()}[${attr}="${CSS.escape(value)}"]`;
  }
  return undefined;
}

export function createCompositionTab(api: WebviewApi, onSelectionChange: (selected: ItemFilter | undefined) => void): CompositionTab {
  let view: CompositionView | undefined;
  let selected: ItemFilter | undefined;
  const jump = (line: number): void => { if (view) api.post('jumpToSource', { sessionId: view.sessionId, line }); };
  const list = new ItemList(api, jump);
  const kinds = section('Tokens by kind');
  const tools = section('Tokens by tool');
  const items = section('Items', list.element);
  const turns = section('Context per turn');
  const top = section('Largest items');
  items.root.classList.add('segment-items');
  // The search match, when the panel was opened at one; above everything, as the reason the panel was opened.
  const focusSlot = h('div', { class: 'focus-slot' });
  const element = h('div', { class: 'composition' },
    focusSlot, h('div', { class: 'grid' }, kinds.root, tools.root), items.root, turns.root, top.root);

  const renderSelectable = (): void => {
    if (!view) return;
    const v = view;
    const refocus = focusedControl(element);
    // The harness is part of "System" (with injected instructions): the line defining it and the history stands here.
    const kindNote = h('p', { class: 'note terms', text: `${v.totals.overhead > 0 ? `System includes ${formatTokens(v.totals.overhead)} tokens of system prompt and tool definitions the agent sent but the transcript does not store. ` : ''}${TERMS_LINE}` });
    kinds.body.replaceChildren(renderKindBar(v.byKind, selected?.by === 'kind' ? selected.value : undefined, (kind) => select({ by: 'kind', value: kind })), kindNote);
    tools.body.replaceChildren(renderToolBars(v.byTool, v.totals.total, selected?.by === 'tool' ? selected.value : undefined, (tool) => select({ by: 'tool', value: tool })));
    // The controls were rebuilt: give keyboard focus back to the one that was just activated.
    if (refocus) element.querySelector<HTMLElement | SVGElement>(refocus)?.focus();
  };

  const select = (filter: ItemFilter): void => {
    if (!view) return;
    // Clicking the selected segment again closes its list.
    selected = selected && selected.by === filter.by && selected.value === filter.value ? undefined : filter;
    onSelectionChange(selected);
    renderSelectable();
    items.root.hidden = !selected;
    if (!selected) return;
    const count = selected.by === 'kind' ? view.byKind.find((k) => k.kind === selected?.value)?.items : view.byTool.find((t) => t.tool === selected?.value)?.items;
    const label = selected.by === 'kind' ? KIND_LABEL[selected.value] : `Tool: ${selected.value}`;
    items.heading.textContent = `${label} — ${formatTokens(count ?? 0)} items, largest first`;
    list.open(view.sessionId, selected);
    items.root.scrollIntoView({ block: 'nearest' });
  };

  const renderTurns = (): void => {
    if (!view) return;
    turns.body.replaceChildren(renderTurnLegend(), renderTurnLine(view.perTurn, turns.body.clientWidth || 640));
  };
  // The line chart is drawn in pixels (one bucket per pixel), so it is redrawn when the panel resizes.
  let lastWidth = 0;
  new ResizeObserver(() => {
    const width = turns.body.clientWidth;
    if (width !== lastWidth) {
      lastWidth = width;
      renderTurns();
    }
  }).observe(turns.body);

  return {
    element,
    show(next, restore) {
      view = next;
      selected = undefined;
      items.root.hidden = true;
      renderSelectable();
      renderTurns();
      top.body.replaceChildren(renderItemHeader(), ...next.top.map((row) => renderItemRow(row, jump)));
      top.heading.textContent = `Largest items (${next.top.length} of ${formatTokens(next.totals.items)})`;
      const exists = restore && (restore.by === 'kind' ? next.byKind.some((k) => k.kind === restore.value && k.items > 0) : next.byTool.some((t) => t.tool === restore.value));
      if (restore && exists) select(restore);
      else onSelectionChange(undefined);
    },
    itemsLoaded: (msg) => list.loaded(msg),
    focus(f) {
      const { card, target } = renderFocusCard(f, jump, () => focusSlot.replaceChildren());
      focusSlot.replaceChildren(card);
      return target;
    },
  };
}
