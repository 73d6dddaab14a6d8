// Host side of the Composition tab: turns a Session into the CompositionView and serves item pages.
import { agentModule } from '../core/formats/registry';
import { buildInspectReport } from '../core/inspect/inspectReport';
import { TOKEN_KINDS, type Session, type TokenKind } from '../core/model/transcript';
import { calibrate } from '../core/tokens/calibrate';
import { compositionItems } from '../core/tokens/composition';
import { MAX_ITEMS_PAGE, type CompositionView, type FocusView, type ItemFilter, type ItemRow, type MessageTarget, type SessionId } from '../protocol/messages';
import { readTranscriptFile } from './readTranscriptFile';

export interface ItemsPage { readonly offset: number; readonly total: number; readonly items: readonly ItemRow[] }

/** A loaded session: the view sent once, and every item kept here so pages are cut on demand. */
export interface CompositionModel {
  readonly view: CompositionView;
  /** The parsed transcript, kept so the Simulator and Cleanup tabs recompute without re-reading the file. */
  readonly session: Session;
  /** Items matching `filter`, largest first, `[offset, offset + min(limit, MAX_ITEMS_PAGE))`. */
  page(filter: ItemFilter, offset: number, limit: number): ItemsPage;
  /** The message a search result points at, with its blocks as rows (context order). */
  focus(target: MessageTarget): FocusView;
}

export const TOP_ITEMS = 20;

export function buildCompositionModel(session: Session, file: string, sessionId: SessionId): CompositionModel {
  const report = buildInspectReport(session, { path: file, bytes: 0 });
  // Same scaling as the report's totals, so a segment's items add up to (about) its bar.
  // Context order first (one item per block, message after message): a message's rows are a slice of it.
  const inOrder: ItemRow[] = compositionItems(session, calibrate(session).scale)
    .map((i) => ({ line: i.line, kind: i.kind, ...(i.tool === undefined ? {} : { tool: i.tool }), tokens: Math.round(i.tokens), preview: i.preview }));
  const all = [...inOrder].sort((a, b) => b.tokens - a.tokens || a.line - b.line);
  const kindCounts = countBy(all, (i) => i.kind);
  const toolCounts = countBy(all, (i) => i.tool);
  const view: CompositionView = {
    sessionId, file, format: report.format, agent: agentModule(report.format).label, ...defined({ title: report.title }), models: report.models,
    totals: {
      total: report.tokens.total, source: report.tokens.source, overhead: report.tokens.estimator.systemOverhead,
      ...defined({ recordedContext: report.tokens.recordedContext, contextWindow: report.tokens.contextWindow }),
      messages: report.messages, turns: report.turns, items: all.length,
    },
    byKind: TOKEN_KINDS.map((kind) => ({ kind, tokens: report.tokens.byKind[kind], items: kindCounts.get(kind) ?? 0 })),
    byTool: Object.entries(report.tokens.byTool).map(([tool, tokens]) => ({ tool, tokens, items: toolCounts.get(tool) ?? 0 })),
    perTurn: report.perTurn.map((t) => ({ turn: t.turn, contextTokens: t.contextTokens, source: t.source })),
    top: all.slice(0, TOP_ITEMS),
    warnings: report.warnings,
  };
  // Filtered lists are built on first use and kept: scrolling one list asks for many pages.
  const filtered = new Map<string, readonly ItemRow[]>();
  const matching = (filter: ItemFilter): readonly ItemRow[] => {
    const key = `${filter.by}\u0000${filter.value}`;
    let rows = filtered.get(key);
    if (!rows) {
      rows = filter.by === 'kind' ? all.filter((i) => i.kind === (filter.value as TokenKind)) : all.filter((i) => i.tool === filter.value);
      filtered.set(key, rows);
    }
    return rows;
  };
  const firstRow: number[] = [];
  session.messages.reduce((at, m) => { firstRow.push(at); return at + m.blocks.length; }, 0);
  return {
    view,
    session,
    focus(target) {
      const m = session.messages[target.message];
      if (!m) return { target, found: false, messages: session.messages.length, rows: [] };
      const rows = inOrder.slice(firstRow[target.message], firstRow[target.message]! + m.blocks.length);
      const line = target.record >= 0 && rows.some((r) => r.line === target.record + 1) ? target.record + 1 : undefined;
      return { target, found: true, role: m.role, messages: session.messages.length, rows, ...defined({ line }) };
    },
    page(filter, offset, limit) {
      const rows = matching(filter);
      const start = Math.min(Math.max(0, Math.floor(offset)), rows.length);
      const size = Math.max(0, Math.min(Math.floor(limit), MAX_ITEMS_PAGE));
      return { offset: start, total: rows.length, items: rows.slice(start, start + size) };
    },
  };
}

export async function loadCompositionModel(file: string, sessionId: (transcriptId: string) => SessionId): Promise<CompositionModel> {
  const { session } = await readTranscriptFile(file);
  return buildCompositionModel(session, file, sessionId(session.id));
}

/** Drops undefined fields: postMessage is JSON, where they would silently vanish anyway. */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function countBy<K>(rows: readonly ItemRow[], key: (r: ItemRow) => K | undefined): Map<K, number> {
  const out = new Map<K, number>();
  for (const r of rows) {
    const k = key(r);
    if (k !== undefined) out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}
