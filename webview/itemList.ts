// Virtualized list of one segment's items: only visible rows are in the DOM, pages fetched on demand.
import type { ItemFilter, ItemRow, SessionId, ToWebview } from '../src/protocol/messages';
import type { WebviewApi } from './api';
import { h } from './dom';
import { renderItemHeader, renderItemRow, renderPendingRow } from './itemRows';

export const ROW_HEIGHT = 26;
const PAGE = 200;
const OVERSCAN = 6;

type ItemsLoaded = Extract<ToWebview, { type: 'itemsLoaded' }>;

const sameFilter = (a: ItemFilter, b: ItemFilter): boolean => a.by === b.by && a.value === b.value;

export class ItemList {
  readonly element: HTMLElement;
  private readonly viewport = h('div', { class: 'item-viewport', attrs: { tabindex: '0' } });
  private readonly spacer = h('div', { class: 'item-spacer' });
  private sessionId: SessionId | undefined;
  private filter: ItemFilter | undefined;
  private total = 0;
  private readonly rows = new Map<number, ItemRow>();
  /** Pages asked for (by page index), so scrolling never asks twice. */
  private readonly requestedPages = new Set<number>();
  /** Request ids of this list's open requests: replies for a list the user already left are dropped. */
  private readonly pending = new Set<number>();
  private nextRequestId = 1;
  private frame = 0;

  constructor(private readonly api: WebviewApi, private readonly onJump: (line: number) => void) {
    this.viewport.append(this.spacer);
    this.viewport.addEventListener('scroll', () => this.schedule());
    this.element = h('div', { class: 'item-list' }, renderItemHeader(), this.viewport);
  }

  open(sessionId: SessionId, filter: ItemFilter): void {
    this.sessionId = sessionId;
    this.filter = filter;
    this.total = 0;
    this.rows.clear();
    this.requestedPages.clear();
    this.pending.clear();
    this.viewport.scrollTop = 0;
    this.spacer.replaceChildren();
    this.requestPage(0);
  }

  loaded(msg: ItemsLoaded): void {
    if (msg.sessionId !== this.sessionId || !this.pending.delete(msg.requestId)) return;
    if (!this.filter || !sameFilter(msg.filter, this.filter)) return;
    this.total = msg.total;
    msg.items.forEach((row, i) => this.rows.set(msg.offset + i, row));
    this.spacer.style.height = `${this.total * ROW_HEIGHT}px`;
    this.render();
  }

  /** Rows currently in the DOM (what the 10k test bounds). */
  get renderedRows(): number {
    return this.spacer.childElementCount;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const height = this.viewport.clientHeight || 400;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.total, Math.ceil((this.viewport.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    const visible: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const row = this.rows.get(i);
      if (!row) this.requestPage(Math.floor(i / PAGE));
      const el = row ? renderItemRow(row, this.onJump) : renderPendingRow();
      el.style.top = `${i * ROW_HEIGHT}px`;
      visible.push(el);
    }
    this.spacer.replaceChildren(...visible);
  }

  private requestPage(page: number): void {
    if (!this.sessionId || !this.filter || this.requestedPages.has(page)) return;
    this.requestedPages.add(page);
    const requestId = this.nextRequestId++;
    this.pending.add(requestId);
    this.api.post('requestItems', { sessionId: this.sessionId, requestId, filter: this.filter, offset: page * PAGE, limit: PAGE });
  }
}
