// What fills the context: tokens by kind, by tool, per turn and the largest items, calibrated
// against the usage the agent recorded where there is any.
import { TOKEN_KINDS, type Block, type FigureSource, type Message, type Session, type TokenKind } from '../model/transcript';
import { calibrate, type Calibration } from './calibrate';

export interface CompositionItem {
  readonly kind: TokenKind;
  readonly tool?: string;
  readonly tokens: number;
  /** 1-based line of the source record. */
  readonly line: number;
  readonly preview: string;
}

export interface TurnFigure {
  readonly turn: number;
  readonly kind: 'user' | 'model' | 'meta';
  /** Context size when this turn's request was sent (model turns), or after it (others). */
  readonly contextTokens: number;
  readonly source: FigureSource;
}

export interface Composition {
  readonly total: number;
  readonly source: FigureSource;
  readonly byKind: Record<TokenKind, number>;
  readonly byTool: Record<string, number>;
  readonly perTurn: TurnFigure[];
  readonly top: CompositionItem[];
  readonly calibration: Calibration;
}

export function blockKind(block: Block, message: Message): TokenKind {
  switch (block.type) {
    case 'text': return message.role === 'assistant' ? 'assistant' : message.role === 'user' ? 'user' : 'system';
    case 'reasoning': return 'reasoning';
    case 'tool_call': return 'tool_call';
    case 'tool_result': return 'tool_result';
    case 'media': return 'media';
    case 'summary': return 'summary';
    case 'meta': return 'system';
  }
}

/** Maps tool call ids to tool names, so results can be charged to their tool. */
export function toolNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === 'tool_call') names.set(b.id, b.name);
  return names;
}

const emptyKinds = (): Record<TokenKind, number> => Object.fromEntries(TOKEN_KINDS.map((k) => [k, 0])) as Record<TokenKind, number>;

/** `calibration` lets a derived session (e.g. after cleanup) be measured on the original's scale. */
export function compose(session: Session, topN = 20, calibration?: Calibration): Composition {
  const cal = calibration ?? calibrate(session);
  const s = cal.scale;
  const byKind = emptyKinds();
  const byTool: Record<string, number> = {};
  const items = blockItems(session, s);
  for (const i of items) {
    byKind[i.kind] += i.tokens;
    if (i.tool) byTool[i.tool] = (byTool[i.tool] ?? 0) + i.tokens;
  }
  byKind.system += cal.overhead;
  const rounded = roundAll(byKind);
  const total = Object.values(rounded).reduce((a, b) => a + b, 0);
  items.sort(byTokensDesc);
  // Previews only for the items shown: a preview per block was most of the report's time.
  return {
    total, source: cal.source, byKind: rounded, byTool: roundAll(byTool),
    perTurn: perTurn(session, cal), top: items.slice(0, topN).map((i) => withPreview(i, Math.round(i.tokens))), calibration: cal,
  };
}

/**
 * `compose(session, 0, calibration).total` without its items, previews and per-turn figures (a compaction measures
 * two totals and nothing else): the same per-kind sums in the same order, rounded the same way.
 */
export function composeTotal(session: Session, calibration?: Calibration): number {
  const cal = calibration ?? calibrate(session);
  const byKind = emptyKinds();
  for (const m of session.messages) for (const b of m.blocks) byKind[blockKind(b, m)] += b.tokens * cal.scale;
  byKind.system += cal.overhead;
  let total = 0;
  for (const k of TOKEN_KINDS) total += Math.round(byKind[k]);
  return total;
}

/** Every block of the live context as an item, tokens scaled by `scale` (unrounded), in context order. */
export function compositionItems(session: Session, scale: number): CompositionItem[] {
  return blockItems(session, scale).map((i) => withPreview(i, i.tokens));
}

/** An item before its preview is made, with the block to make it from. */
interface BlockItem { readonly kind: TokenKind; readonly tool?: string; readonly tokens: number; readonly block: Block }

/** A module function, not an arrow made per call: its optimized code outlives a major GC (read/shapeKeeper.ts). */
const byTokensDesc = (a: BlockItem, b: BlockItem): number => b.tokens - a.tokens;

function blockItems(session: Session, scale: number): BlockItem[] {
  const names = toolNames(session.messages);
  const items: BlockItem[] = [];
  for (const m of session.messages) {
    for (const b of m.blocks) {
      const tool = b.type === 'tool_call' ? b.name : b.type === 'tool_result' ? names.get(b.id) ?? 'unknown' : undefined;
      items.push({ kind: blockKind(b, m), tool, tokens: b.tokens * scale, block: b });
    }
  }
  return items;
}

/** The item as shown (key order is the JSON report's). */
const withPreview = (i: BlockItem, tokens: number): CompositionItem => ({ kind: i.kind, tool: i.tool, tokens, line: i.block.ref.record + 1, preview: previewOf(i.block) });

function perTurn(session: Session, cal: Calibration): TurnFigure[] {
  const out: TurnFigure[] = [];
  let cumulative = 0;
  for (const t of session.turns) {
    const before = cumulative;
    for (let i = t.start; i < t.end; i++) for (const b of session.messages[i]!.blocks) cumulative += b.tokens;
    if (t.kind === 'model' && t.recordedContext !== undefined) out.push({ turn: t.index, kind: t.kind, contextTokens: t.recordedContext, source: 'recorded' });
    else out.push({ turn: t.index, kind: t.kind, contextTokens: Math.round(cal.overhead + (t.kind === 'model' ? before : cumulative) * cal.scale), source: 'estimated' });
  }
  return out;
}

function roundAll<K extends string>(o: Record<K, number>): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of Object.keys(o) as K[]) out[k] = Math.round(o[k]);
  return out;
}

function previewOf(b: Block): string {
  const raw = b.type === 'tool_call' ? `${b.name} ${b.inputText}` : b.type === 'media' ? `[${b.mime}, ${b.bytes} bytes]` : b.type === 'meta' && !b.text ? `[${b.subtype}]` : 'text' in b ? b.text : '';
  return preview(raw);
}

const PREVIEW = 100;
/** The first prefix preview() collapses. */
const PREVIEW_WINDOW = 4 * PREVIEW;

/**
 * `raw` with whitespace runs collapsed and trimmed, cut to 100 characters. Every block gets one, so
 * only a growing prefix is normalised (the whole-text regex was a fifth of inspect's time): the
 * collapsed prefix is a prefix of the collapsed whole, and once it holds more than 100 non-trailing
 * characters the first 99 are final.
 */
export function preview(raw: string): string {
  for (let n = PREVIEW_WINDOW; ; n *= 4) {
    const whole = n >= raw.length;
    const one = (whole ? raw : raw.slice(0, n)).replace(/\s+/g, ' ').trim();
    if (one.length > PREVIEW) return `${one.slice(0, PREVIEW - 1)}…`;
    if (whole) return one;
  }
}

/**
 * As much of `text` as preview() reads to give what it gives on the whole: the first 400 characters when they hold
 * more than 100 visible ASCII characters (their collapsed form is then over 100 long, and preview() stops there),
 * else all of it. A copy, not a slice: V8 keeps a slice's whole parent alive.
 */
export function textForPreview(text: string): string {
  if (text.length <= PREVIEW_WINDOW) return text;
  let visible = 0;
  for (let i = 0; i < PREVIEW_WINDOW && visible <= PREVIEW; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c < 127) visible++;
  }
  // Appending flattens the slice into a string of its own; cutting the appended character off again keeps only that.
  return visible > PREVIEW ? `${text.slice(0, PREVIEW_WINDOW)} `.slice(0, -1) : text;
}

/**
 * `blocks` with each tool result's text cut to textForPreview (ReadOptions.previewTexts): a report needs a result's
 * tokens (counted from the whole text before this) and its preview, and the rest of a long output then dies young
 * instead of being copied by every scavenge while the file is read. Called on blocks a parser has just made for this
 * read, so the text is cut in place: a spread copy's hidden class is held only weakly by V8 and dies with the session,
 * taking the reader's optimized code with it (read/shapeKeeper.ts). Cutting twice gives the same text.
 */
export function withPreviewTexts(blocks: Block[]): Block[] {
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k]!;
    if (b.type !== 'tool_result') continue;
    const text = textForPreview(b.text);
    if (text !== b.text) (b as { text: string }).text = text;
  }
  return blocks;
}
