// Claude Code JSONL reader: every record kept, the live branch assembled into messages and turns.
import type { Block, Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { LineParser, ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { titleFromMessages, titleFromText } from '../../usage/title';
import { keepInstance } from '../../read/shapeKeeper';
import { plausibleTokens } from '../../read/usageNumbers';
import { absurdUsageField, newReadNotes, noteWarnings } from '../../read/warnings';
import { withPreviewTexts } from '../../tokens/composition';
import { estimateTokens } from '../../tokens/estimate';
import { CLAUDE_CODE_WINDOW, sessionContextWindow } from '../../usage/contextWindow';
import { contentBlocks } from './blocks';
import { selectLiveBranch } from './chain';
import { choosesOneMillion, modelChosen } from './modelCommand';
import type { ClaudeNode } from './node';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const NODE_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);

/** A response's usage; undefined when absent, all zero, or with a figure no API reports (see plausibleTokens). */
export function readUsage(u: unknown, onAbsurd?: () => void): Usage | undefined {
  if (!isObj(u)) return undefined;
  const inputTokens = plausibleTokens(u.input_tokens), outputTokens = plausibleTokens(u.output_tokens);
  const cacheReadTokens = plausibleTokens(u.cache_read_input_tokens), cacheCreationTokens = plausibleTokens(u.cache_creation_input_tokens);
  if (inputTokens === undefined || outputTokens === undefined || cacheReadTokens === undefined || cacheCreationTokens === undefined) { onAbsurd?.(); return undefined; }
  const usage = { inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens };
  // All zeros is a copy that was not billed (our compacted sessions), not a request that sent nothing.
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheCreationTokens > 0 ? usage : undefined;
}

export function createClaudeCodeParser(options: ReadOptions): LineParser {
  return new ClaudeCodeParser(options);
}

/**
 * A class, not closures made per read: `line` lives on one prototype, so its optimized code serves every later read
 * in the process (a closure's code is dropped with it at the next major GC; see read/shapeKeeper.ts).
 */
class ClaudeCodeParser implements LineParser {
  private readonly records: RawRecord[] = [];
  private readonly nodes: ClaudeNode[] = [];
  private sessionId: string | undefined;
  private cwd: string | undefined;
  // The first version and git branch seen, kept as fields until finish: properties added one by one to an object give
  // it hidden classes reached only through weak transitions, which die with the session (read/shapeKeeper.ts).
  private version: unknown;
  private gitBranch: unknown;
  private branchFirst = false;
  /**
   * The last `ai-title` record's title (`{"type":"ai-title","aiTitle":"Fix missing field dependency in Odoo…"}`),
   * written again through the file: the name Claude Code 2.1.1xx shows the session by. It wins over the first prompt,
   * which can be a pasted log line (a real 2.1.148 session was titled `2026-05-25 19:37:39,643 25 INFO …`); the
   * usage scan applies the same rule (usage.ts).
   */
  private aiTitle: string | undefined;
  private readonly notes = newReadNotes();
  private readonly uuids = new Set<string>();

  constructor(private readonly options: ReadOptions) {}

  line(index: number, raw: string, value: unknown): void {
    const options = this.options;
    const kind = recordKind(value);
    this.records[index] = { raw: options.keepRaw && !options.linesKeptOutside ? raw : undefined, kind, inContext: false, id: isObj(value) && options.keepRaw ? str(value.uuid) : undefined, envelope: options.keepRaw ? envelopeOf(value) : undefined };
    if (!isObj(value)) return;
    this.sessionId ??= str(value.sessionId);
    this.cwd ??= str(value.cwd);
    if (this.version === undefined && str(value.version)) this.version = value.version;
    if (this.gitBranch === undefined && str(value.gitBranch)) { this.gitBranch = value.gitBranch; this.branchFirst = this.version === undefined; }
    if (value.type === 'ai-title') { if (typeof value.aiTitle === 'string' && titleFromText(value.aiTitle)) this.aiTitle = value.aiTitle; return; }
    if (typeof value.type === 'string' && NODE_TYPES.has(value.type) && ('uuid' in value || 'parentUuid' in value)) {
      // A uuid seen before is a repeated record (a file stitched or copied twice): the first one stands.
      const uuid = str(value.uuid);
      if (uuid !== undefined && this.uuids.has(uuid)) { this.notes.duplicates++; return; }
      if (uuid !== undefined) this.uuids.add(uuid);
      const node = toNode(index, value, this.notes.onTooDeep, this.notes.onAbsurd);
      if (options.previewTexts) withPreviewTexts(node.blocks);
      this.nodes.push(node);
    }
  }

  finish(endsWithNewline: boolean, warnings: string[]): Session {
    const { notes, nodes, records } = this;
    if (notes.duplicates) warnings.push(`${notes.duplicates} record(s) repeat the uuid of an earlier record and were ignored`);
    const branch = selectLiveBranch(nodes);
    if (branch.brokenAt !== undefined) {
      warnings.push(forkedSubagent(nodes, branch.brokenAt)
        ? `line ${branch.brokenAt + 1} continues its parent session's conversation (a subagent forked from it, as Claude Code's compaction agent is): the history before it is in the parent session's file`
        : `line ${branch.brokenAt + 1} points to a parent that is not in the file; the history before it is not part of the live context`);
    }
    for (const line of branch.cycles) warnings.push(`line ${line + 1}: its parentUuid closes a cycle; the chain goes on with the record before it in the file`);
    const live: ClaudeNode[] = [];
    for (const i of branch.nodes) live.push(nodes[i]!);
    const messages = repairToolPairs(assemble(live, records), warnings);
    warnings.push(...noteWarnings(notes));
    const seen = new Set<string>();
    for (const n of nodes) if (n.model && n.model !== '<synthetic>') seen.add(n.model);
    const models = [...seen];
    let last: Message | undefined;
    for (let k = messages.length - 1; k >= 0 && !last; k--) if (messages[k]!.usage) last = messages[k];
    // A subagent's own file is all sidechain: its records are its main chain.
    const window = windowFacts(nodes.some((n) => !n.sidechain) ? nodes.filter((n) => !n.sidechain) : nodes);
    // In the order they were found, as when they were set as they came.
    const extra: Record<string, unknown> = {};
    if (this.branchFirst) extra.gitBranch = this.gitBranch;
    if (this.version !== undefined) extra.version = this.version;
    if (this.gitBranch !== undefined && !this.branchFirst) extra.gitBranch = this.gitBranch;
    // The writer names the compacted copy as Claude Code named the original (write.ts).
    if (this.aiTitle !== undefined) extra.aiTitle = this.aiTitle;
    return {
      format: 'claude-code', id: this.sessionId ?? '', cwd: this.cwd, title: (this.aiTitle !== undefined ? titleFromText(this.aiTitle) : undefined) ?? firstPromptTitle(nodes) ?? titleFromMessages(messages), models, records, messages,
      turns: buildTurns(messages),
      recordedContext: last?.usage ? contextOf(last.usage) : undefined,
      ...(last ? {} : harnessBefore(nodes)),
      contextWindow: sessionContextWindow('claude-code', window.model, { peak: window.peak }),
      warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline, extra,
    } satisfies Session;
  }
}

keepInstance(new ClaudeCodeParser({ keepRaw: false }));

/**
 * The harness of a session compacted with no request since (Session.harnessBeforeCompaction): the first request the
 * file recorded, less the estimate of its chain before it (one response split over records is one request: its own
 * records are its output, not counted).
 */
function harnessBefore(nodes: readonly ClaudeNode[]): { harnessBeforeCompaction?: number } {
  const first = nodes.find((n) => n.usage && n.model !== '<synthetic>' && contextOf(n.usage) > 0);
  if (!first?.usage) return {};
  const byUuid = new Map<string, ClaudeNode>();
  for (const n of nodes) if (n.uuid !== undefined) byUuid.set(n.uuid, n);
  let estimate = 0;
  const seen = new Set<ClaudeNode>();
  for (let n = first.parentUuid ? byUuid.get(first.parentUuid) : undefined; n && !seen.has(n); n = n.parentUuid ? byUuid.get(n.parentUuid) : undefined) {
    seen.add(n);
    if (first.msgId !== undefined && n.msgId === first.msgId) continue;
    for (const b of n.blocks) estimate += b.tokens;
  }
  const harness = Math.round(contextOf(first.usage) - estimate);
  return harness > 0 ? { harnessBeforeCompaction: harness } : {};
}

/**
 * What decides the window: the model last used, as a `[1m]` variant when the latest `/model` chose the 1M context (the
 * API's responses name the model without the suffix), and the largest context any request of the chain had since that
 * `/model` anywhere in the file — before a compaction or on an abandoned branch too: when two requests went past 200k,
 * the session ran with the 1M window (the peak is capped at 200k otherwise). Only `/model`'s own record counts: words that quote its answer (a prompt, a reply) choose nothing.
 */
function windowFacts(nodes: readonly ClaudeNode[]): { model: string | undefined; peak: number } {
  let model: string | undefined, oneMillion = false, peak = 0;
  // The requests past 200k (one response split over records is one request): one alone may be a bogus usage record,
  // a second says the window was 1M (its context only grows until a compaction, so a real one is followed by more).
  const long = new Set<string | number>();
  for (const n of nodes) {
    if (n.model && n.model !== '<synthetic>') { model = n.model; if (/\[1m\]$/i.test(n.model)) oneMillion = true; }
    const context = n.usage ? contextOf(n.usage) : 0;
    peak = Math.max(peak, context);
    if (context > CLAUDE_CODE_WINDOW) long.add(n.msgId ?? n.line);
    const chosen = n.modelCommand;
    // Requests before a `/model` ran with the model chosen before it.
    if (chosen !== undefined) { oneMillion = choosesOneMillion(chosen); peak = 0; long.clear(); }
  }
  return { model: model && oneMillion && !/\[1m\]$/i.test(model) ? `${model}[1m]` : model, peak: long.size >= 2 ? peak : Math.min(peak, CLAUDE_CODE_WINDOW) };
}

/**
 * The first prompt typed in the main chain, wherever it is in the file: the usage scanner's rule (usage.ts applyUser),
 * so the Sessions view and inspect name a session alike. After a compaction the live branch may hold no typed prompt
 * (the session was shown by its id) or start at a later one; a subagent file (all sidechain) falls back to its own.
 */
function firstPromptTitle(nodes: readonly ClaudeNode[]): string | undefined {
  for (const n of nodes) {
    if (n.type !== 'user' || n.sidechain || n.isMeta || n.compactSummary) continue;
    const title = titleFromMessages([{ role: 'user', blocks: n.blocks }]);
    if (title) return title;
  }
  return undefined;
}

/**
 * A subagent file (every record a sidechain) whose first record's parent is a record of the parent session: Claude
 * Code 2.1's compaction agent (`subagents/agent-acompact-*.jsonl`) forks the conversation it summarizes, and its
 * recorded request holds that whole history (a real 2.1.49 one: 2 records, 172,447 tokens sent).
 */
function forkedSubagent(nodes: readonly ClaudeNode[], brokenAt: number): boolean {
  return nodes.length > 0 && nodes[0]!.line === brokenAt && nodes.every((n) => n.sidechain);
}

/** The record without its content and tool output, keeping key order (see RawRecord.envelope). */
function envelopeOf(value: unknown): Record<string, unknown> | undefined {
  if (!isObj(value) || (value.type !== 'user' && value.type !== 'assistant') || !isObj(value.message)) return undefined;
  const message = { ...value.message, content: null };
  // A "__proto__" key must stay a key: assignment would set the prototype, the spread defines it.
  if (Object.hasOwn(value, '__proto__')) {
    const { toolUseResult: _dropped, ...rest } = value;
    return { ...rest, message };
  }
  // One copy, in the record's key order (not a spread and then a second spread to replace the message; not `delete`,
  // which drops V8's fast object shape for every later access).
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) if (k !== 'toolUseResult') out[k] = k === 'message' ? message : value[k];
  return out;
}

export const contextOf = (u: Usage): number => u.inputTokens + u.cacheReadTokens + u.cacheCreationTokens;

function recordKind(value: unknown): string {
  if (!isObj(value)) return 'invalid';
  const t = str(value.type) ?? 'unknown';
  if (t === 'system' && str(value.subtype)) return `system:${value.subtype as string}`;
  if (t === 'attachment' && isObj(value.attachment)) return `attachment:${str(value.attachment.type) ?? '?'}`;
  return t;
}

function toNode(line: number, o: Obj, onTooDeep: () => void, onAbsurd: () => void): ClaudeNode {
  const type = o.type as ClaudeNode['type'];
  const msg = isObj(o.message) ? o.message : {};
  const ref = { record: line };
  let blocks: Block[] = [];
  let compactSummary = false;
  if (type === 'user' || type === 'assistant') {
    blocks = contentBlocks(msg.content, ref, type, onTooDeep);
    if (type === 'user' && o.isCompactSummary === true) {
      compactSummary = true;
      const text = blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
      blocks = [{ type: 'summary', text, origin: text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref, tokens: estimateTokens(text) }];
    } else if (type === 'user' && o.isMeta === true) {
      blocks = blocks.map((b) => (b.type === 'text' ? { type: 'meta', subtype: 'meta', text: b.text, ref, tokens: b.tokens } : b));
    }
  } else if (type === 'attachment') {
    // Attachments reach the model only through their rendered text (system reminders).
    const rendered = Array.isArray(o.rendered) ? o.rendered : [];
    const text = rendered.map((r) => (isObj(r) ? str(r.content) ?? '' : '')).join('\n');
    const sub = isObj(o.attachment) ? str(o.attachment.type) ?? 'attachment' : 'attachment';
    if (text) blocks = [{ type: 'meta', subtype: `attachment:${sub}`, text, ref, tokens: estimateTokens(text) }];
  } else if (type === 'system') {
    const sub = str(o.subtype) ?? 'system';
    if (sub === 'compact_boundary' || sub === 'microcompact_boundary') blocks = [{ type: 'meta', subtype: sub, text: '', ref, tokens: 0 }];
    else if (sub === 'local_command' && str(o.content)) blocks = [{ type: 'meta', subtype: sub, text: o.content as string, ref, tokens: estimateTokens(o.content as string) }];
  }
  const callIds: string[] = [], resultIds: string[] = [];
  for (const b of blocks) {
    if (b.type === 'tool_call') callIds.push(b.id);
    else if (b.type === 'tool_result') resultIds.push(b.id);
  }
  return {
    line, uuid: str(o.uuid), parentUuid: o.parentUuid as string | null | undefined, type,
    timestamp: str(o.timestamp) ?? '', sidechain: o.isSidechain === true,
    msgId: str(msg.id), requestId: str(o.requestId) ?? str(o.requestRef), model: str(msg.model),
    usage: type === 'assistant' ? readUsage(msg.usage, onAbsurd) : undefined, blocks,
    callIds, resultIds,
    compactSummary, isMeta: o.isMeta === true,
    modelCommand: type === 'system' || type === 'user' ? modelChosen(o) : undefined,
  };
}

/** Group live nodes into API-level messages: one assistant message per message.id. */
function assemble(live: readonly ClaudeNode[], records: RawRecord[]): Message[] {
  const messages: Message[] = [];
  const byMsgId = new Map<string, Message>();
  for (const n of live) {
    records[n.line]!.inContext = n.blocks.length > 0;
    if (n.blocks.length === 0) continue;
    if (n.type === 'assistant') {
      const existing = n.msgId ? byMsgId.get(n.msgId) : undefined;
      if (existing) {
        existing.blocks.push(...n.blocks);
        existing.records.push(n.line);
        // output_tokens grows across a response's records; the fullest row is the final one.
        if (n.usage && (!existing.usage || n.usage.outputTokens >= existing.usage.outputTokens)) existing.usage = n.usage;
        continue;
      }
      const m: Message = { role: 'assistant', blocks: [...n.blocks], records: [n.line], timestamp: n.timestamp, model: n.model, apiId: n.msgId, usage: n.usage };
      if (n.msgId) byMsgId.set(n.msgId, m);
      messages.push(m);
    } else {
      const role = n.type === 'user' ? 'user' : 'system';
      const toolResultsOnly = n.blocks.every((b) => b.type === 'tool_result');
      messages.push({ role, blocks: [...n.blocks], records: [n.line], timestamp: n.timestamp, toolResultsOnly });
    }
  }
  return messages;
}

