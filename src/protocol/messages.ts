// The one message protocol between the extension host and the context webview: JSON-only, readonly.
//
// Host → webview messages are past tense (what happened), webview → host imperative (what to do).
// Every session-level message is scoped by `sessionId`; recomputations also carry a `requestId`.
import type { RuleId } from '../core/cleanup/types';
import type { FigureSource, FormatId, TokenKind } from '../core/model/transcript';
import type { Simulation } from '../core/simulate/simulate';

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
  /** The agent's name as its users know it ("Claude Code"), shown instead of the format id. */
  readonly agent: string;
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

/** The panel's tabs, in display order. */
export const TAB_IDS = ['composition', 'simulator', 'cleanup'] as const;
export type TabId = (typeof TAB_IDS)[number];

/** The Simulator's controls. The host clamps every number to SIMULATION_LIMITS (src/protocol/limits.ts). */
export interface SimulationPolicyInput {
  readonly threshold: number;
  /** Model turns kept verbatim at each compaction. */
  readonly keepRecentTurns: number;
  /** false: compaction is cleanup only (no summary call, nothing replaces the aging part). */
  readonly summary: boolean;
  readonly summaryTokens: number;
}

export interface SimulatedPoint {
  /** Index of the model turn (request) in the session. */
  readonly index: number;
  readonly contextTokens: number;
  readonly contextTokensWithPolicy: number;
  /** A compaction ran right before this request. */
  readonly compacted: boolean;
  /** Input of that compaction's modeled summary call (0 otherwise), counted in billedInputWith. */
  readonly summaryInput: number;
}

/** src/core/simulate's result for one policy, and the policy as the host actually ran it. */
export interface SimulationView {
  readonly policy: SimulationPolicyInput;
  readonly turns: readonly SimulatedPoint[];
  /** Billed input without/with (summary calls included), compactions, peak context without/with. */
  readonly totals: Readonly<Simulation['totals']>;
}

/** The Cleanup tab's controls. Unknown rule ids are ignored by the host; missing ones keep the settings. */
export interface CleanupInput {
  readonly keepRecentTurns: number;
  /** > 0: protect the recent part by this token budget instead of a turn count. */
  readonly keepRecentTokens: number;
  readonly rules: Readonly<Partial<Record<RuleId, boolean>>>;
}

export interface RuleRow {
  readonly id: RuleId;
  /** The rule's human name ("Collapse repeated noise"); the id stays for settings and toggles. */
  readonly label: string;
  readonly description: string;
  readonly enabled: boolean;
  /** Calibrated like the totals, so the rows add up to before − after. */
  readonly tokensSaved: number;
  /** Blocks the rule replaced or removed. */
  readonly applied: number;
}

export interface CleanupPreview {
  /** The options as the host ran them (clamped, every rule present). */
  readonly options: CleanupInput;
  /** Every rule, in the order the engine applies them. */
  readonly rules: readonly RuleRow[];
  readonly before: number;
  readonly after: number;
  readonly reduction: number;
  /** The history (request minus the harness: system prompt + tool definitions + the initial context the agent re-sends), before and after, and its cut. */
  readonly history: { readonly before: number; readonly after: number; readonly reduction: number };
  readonly harnessTokens: number;
  /** The harness the compacted copy carries (less than harnessTokens when repeated initial context is left out). */
  readonly harnessAfterTokens: number;
  /** One line on the harness where it is a large share of every request (else absent). */
  readonly harnessNote?: string;
  readonly tooSmallToCompact: boolean;
  readonly protected: { readonly fromTurn: number; readonly turns: number; readonly tokens: number };
  /** What stayed verbatim, and why (calibrated tokens). */
  readonly protectedParts: readonly { readonly reason: string; readonly blocks: number; readonly tokens: number }[];
  /** Share of identifiers of the changed blocks still present; absent when too costly for this session. */
  readonly identifierRecall?: { readonly recall: number; readonly total: number };
}

/** A search match the panel opens at (the Sessions view's search): which message, which block, what matched. */
export interface MessageTarget {
  /** 0-based index into the session's messages, as the search index recorded it. */
  readonly message: number;
  /** 0-based record (line) of the matched block; -1 when the reader made the block. */
  readonly record: number;
  /** prompt, reply, tool call, tool result, reasoning or summary. */
  readonly kind: string;
  /** One line around the match, `start`/`end` where the match stands in it. Untrusted transcript text. */
  readonly snippet: { readonly text: string; readonly start: number; readonly end: number };
}

/** The message a search opened the panel at: its blocks as item rows, the matched one by its line. */
export interface FocusView {
  readonly target: MessageTarget;
  /** false: the session no longer has that message (it changed since it was indexed); the rest is then empty. */
  readonly found: boolean;
  readonly role?: string;
  readonly messages: number;
  readonly rows: readonly ItemRow[];
  /** 1-based line of the matched block's row, when it has one. */
  readonly line?: number;
}

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
  }
  | { readonly type: 'simulationLoaded'; readonly sessionId: SessionId; readonly requestId: number; readonly simulation: SimulationView }
  | { readonly type: 'cleanupPreviewed'; readonly sessionId: SessionId; readonly requestId: number; readonly preview: CleanupPreview }
  | { readonly type: 'analysisFailed'; readonly sessionId: SessionId; readonly requestId: number; readonly what: 'simulate' | 'previewCleanup'; readonly message: string }
  | { readonly type: 'messageFocused'; readonly sessionId: SessionId; readonly focus: FocusView };

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
  | { readonly type: 'jumpToSource'; readonly sessionId: SessionId; readonly line: number }
  /** Without `policy`, the host starts from the user's settings (the reply says what it used). */
  | { readonly type: 'simulate'; readonly sessionId: SessionId; readonly requestId: number; readonly policy?: SimulationPolicyInput }
  | { readonly type: 'previewCleanup'; readonly sessionId: SessionId; readonly requestId: number; readonly options?: CleanupInput }
  /** Run the Compact transcript flow (diff preview, Accept/Discard) with these options; `continueIn`: for another agent, asked for. */
  | { readonly type: 'openDiff'; readonly sessionId: SessionId; readonly options: CleanupInput; readonly continueIn?: true }
  /** The focused message is on screen (scrolled to and highlighted); `message` is its 0-based index. */
  | { readonly type: 'focusShown'; readonly sessionId: SessionId; readonly message: number };

/**
 * What the webview persists with `setState`: the file lets the panel serializer reopen it after a
 * window reload; the tab, selected segment and controls come back when the (hidden, hence discarded)
 * webview is shown again.
 */
export interface WebviewState {
  readonly file: string;
  readonly selected?: ItemFilter;
  readonly tab?: TabId;
  readonly policy?: SimulationPolicyInput;
  readonly cleanup?: CleanupInput;
}

type Shape = Readonly<Record<string, unknown>>;
const isObject = (x: unknown): x is Shape => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const isText = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 4096;
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Shape only: the values are clamped by the host (limits.ts), so any finite number passes here. */
export function isSimulationPolicyInput(x: unknown): x is SimulationPolicyInput {
  return isObject(x) && isFiniteNumber(x.threshold) && isFiniteNumber(x.keepRecentTurns) && typeof x.summary === 'boolean' && isFiniteNumber(x.summaryTokens);
}

/** Shape only: rule ids are free-form keys here (unknown ones are ignored later), values must be booleans. */
export function isCleanupInput(x: unknown): x is CleanupInput {
  return isObject(x) && isFiniteNumber(x.keepRecentTurns) && isFiniteNumber(x.keepRecentTokens) && isObject(x.rules)
    && Object.keys(x.rules).length <= 64 && Object.values(x.rules).every((v) => typeof v === 'boolean');
}

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
    case 'simulate':
      return isText(x.sessionId) && isCount(x.requestId) && (x.policy === undefined || isSimulationPolicyInput(x.policy));
    case 'previewCleanup':
      return isText(x.sessionId) && isCount(x.requestId) && (x.options === undefined || isCleanupInput(x.options));
    case 'openDiff':
      return isText(x.sessionId) && isCleanupInput(x.options) && (x.continueIn === undefined || x.continueIn === true);
    case 'focusShown':
      return isText(x.sessionId) && isCount(x.message);
    default:
      return false;
  }
}

export function isWebviewState(x: unknown): x is WebviewState {
  return isObject(x) && isText(x.file) && (x.selected === undefined || isItemFilter(x.selected))
    && (x.tab === undefined || (TAB_IDS as readonly unknown[]).includes(x.tab))
    && (x.policy === undefined || isSimulationPolicyInput(x.policy))
    && (x.cleanup === undefined || isCleanupInput(x.cleanup));
}
