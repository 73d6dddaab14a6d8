// The one message protocol between the extension host and the context webview: JSON-only, readonly.
//
// Host → webview messages are past tense (what happened), webview → host imperative (what to do).
// The Simulator and Cleanup tabs add their own members to these unions (e.g. `simulationUpdated` /
// `requestSimulation`, `cleanupPreviewed` / `requestCleanupPreview`), scoped by the same `sessionId`.
import type { FigureSource, FormatId, TokenKind } from '../core/model/transcript';

/**
 * Opaque id of one loaded snapshot of a transcript (transcript id + load generation). Replies for an
 * older snapshot (the user pressed Reload meanwhile) are dropped by whichever side receives them.
 */
export type SessionId = string;

/** One block of the live context, as listed in the top items and in a segment's item list. */
export interface ItemRow {
  /** 1-based line of the transcript record the block came from (target of `jumpToSource`). */
  readonly line: number;
  readonly kind: TokenKind;
  /** Tool the call or result belongs to; absent for non-tool blocks. */
  readonly tool?: string;
  readonly tokens: number;
  /** One line, at most 100 characters, of the block's text. Untrusted transcript text. */
  readonly preview: string;
}

export interface KindTotal { readonly kind: TokenKind; readonly tokens: number; readonly items: number }
export interface ToolTotal { readonly tool: string; readonly tokens: number; readonly items: number }
export interface TurnPoint {
  readonly turn: number;
  readonly contextTokens: number;
  /** `recorded`: the agent logged this request's size; `estimated`: our offline estimate. */
  readonly source: FigureSource;
}

/** Everything the Composition tab draws, computed on the host (the webview never counts tokens). */
export interface CompositionView {
  readonly sessionId: SessionId;
  /** Absolute path of the transcript file. */
  readonly file: string;
  readonly format: FormatId;
  readonly title?: string;
  readonly models: readonly string[];
  readonly totals: {
    readonly total: number;
    readonly source: FigureSource;
    /** Tokens the agent sent besides the messages (system prompt, tool schemas): no item to list. */
    readonly overhead: number;
    readonly recordedContext?: number;
    readonly contextWindow?: number;
    readonly messages: number;
    readonly turns: number;
    readonly items: number;
  };
  /** Every token kind, in TOKEN_KINDS order, zeros included. */
  readonly byKind: readonly KindTotal[];
  /** Tools by tokens, largest first. */
  readonly byTool: readonly ToolTotal[];
  readonly perTurn: readonly TurnPoint[];
  /** The 20 largest items. */
  readonly top: readonly ItemRow[];
  readonly warnings: readonly string[];
}

/** Which items a segment click asks for: one token kind (stacked bar) or one tool (tool list). */
export type ItemFilter = { readonly by: 'kind'; readonly value: TokenKind } | { readonly by: 'tool'; readonly value: string };

/** Largest page the host sends for one `requestItems`, whatever the webview asks. */
export const MAX_ITEMS_PAGE = 500;

export type ToWebview =
  | { readonly type: 'sessionLoading'; readonly file: string }
  | { readonly type: 'sessionLoaded'; readonly sessionId: SessionId; readonly view: CompositionView }
  | { readonly type: 'sessionFailed'; readonly file: string; readonly message: string }
  | {
    readonly type: 'itemsLoaded';
    readonly sessionId: SessionId;
    /** Echo of `requestItems.requestId`, so the webview matches replies to the list it is showing. */
    readonly requestId: number;
    readonly filter: ItemFilter;
    readonly offset: number;
    /** Items matching the filter in all (the list's scroll height), not just this page. */
    readonly total: number;
    /** Sorted by tokens, largest first. */
    readonly items: readonly ItemRow[];
  };

export type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'reload' }
  | {
    readonly type: 'requestItems';
    readonly sessionId: SessionId;
    readonly requestId: number;
    readonly filter: ItemFilter;
    readonly offset: number;
    readonly limit: number;
  }
  | { readonly type: 'jumpToSource'; readonly sessionId: SessionId; readonly line: number };

/**
 * What the webview persists with `setState`: the file lets the panel serializer reopen it after a
 * window reload; the selected segment comes back when the (hidden, hence discarded) webview is shown again.
 */
export interface WebviewState { readonly file: string; readonly selected?: ItemFilter }

type Shape = Readonly<Record<string, unknown>>;
const isObject = (x: unknown): x is Shape => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const isText = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 4096;

function isItemFilter(x: unknown): x is ItemFilter {
  // The kind's value is checked by the host's lookup (an unknown kind just matches nothing).
  return isObject(x) && (x.by === 'kind' || x.by === 'tool') && isText(x.value);
}

/** The host's input boundary: a webview message is checked before it is dispatched. */
export function isFromWebview(x: unknown): x is FromWebview {
  if (!isObject(x)) return false;
  switch (x.type) {
    case 'ready':
    case 'reload':
      return true;
    case 'requestItems':
      return isText(x.sessionId) && isCount(x.requestId) && isItemFilter(x.filter) && isCount(x.offset) && isCount(x.limit);
    case 'jumpToSource':
      return isText(x.sessionId) && isCount(x.line) && x.line >= 1;
    default:
      return false;
  }
}

export function isWebviewState(x: unknown): x is WebviewState {
  return isObject(x) && isText(x.file) && (x.selected === undefined || isItemFilter(x.selected));
}
