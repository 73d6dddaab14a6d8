// The conversion stage: a cleaned session of one agent as an agent-neutral conversation another agent's writer
// renders natively — typed words kept verbatim, tool calls mapped to the target's tools (or folded into words),
// harness context and what the target cannot take left out and counted for the report.
import type { AgentId } from '../model/ids';
import type { Message, Session, ToolCallBlock, ToolResultBlock } from '../model/transcript';
import { MARK } from '../cleanup/records';
import { mapToolCall } from './toolMap';

/** A tool call in the target's own terms, with the result it got (results travel with their call). */
export interface ConvCall {
  readonly type: 'call';
  readonly id: string;
  readonly name: string;
  /** Arguments object, or the raw text of a freeform tool (Codex apply_patch). */
  readonly input: unknown;
  readonly result: { readonly text: string; readonly isError: boolean };
}
export type ConvPart = { readonly type: 'text'; readonly text: string } | ConvCall;

export type ConvMessage =
  /** `summary`: the source agent's own compaction summary, which a target writes in its own compaction form. */
  | { readonly role: 'user'; readonly text: string; readonly summary?: true }
  | { readonly role: 'assistant'; readonly parts: readonly ConvPart[] };

/** What could not be carried over, counted (the report says it in words). */
export interface NotCarried {
  reasoning: number;
  encryptedReasoning: number;
  media: number;
  folded: number;
  harness: number;
  pending: number;
}

/** The agent a session is converted for, and what of the user's setup its writer must follow. */
export interface ConvertTarget {
  readonly to: AgentId;
  /** Codex: the configured model provider (Codex resumes a thread only under the provider it records). */
  readonly modelProvider?: string;
  /** OpenCode: the configured model, which the written messages name (it continues with that one). */
  readonly model?: { readonly providerID: string; readonly modelID: string };
}

export interface Conversation {
  readonly from: AgentId;
  readonly to: AgentId;
  readonly modelProvider?: string;
  readonly targetModel?: { readonly providerID: string; readonly modelID: string };
  readonly cwd?: string;
  readonly title?: string;
  readonly model?: string;
  readonly messages: readonly ConvMessage[];
  readonly notCarried: NotCarried;
}

/** The cleaned session `cleaned` (snapshot or summary included) as a conversation for `to`. */
export function convertSession(original: Session, cleaned: Session, target: ConvertTarget): Conversation {
  const to = target.to;
  const notCarried: NotCarried = { reasoning: 0, encryptedReasoning: 0, media: 0, folded: 0, harness: 0, pending: 0 };
  const results = new Map<string, ToolResultBlock>();
  for (const m of cleaned.messages) for (const b of m.blocks) if (b.type === 'tool_result' && !results.has(b.id)) results.set(b.id, b);
  const used = new Set<string>();
  const messages: ConvMessage[] = [];
  const ids = new Set<string>();
  const push = (m: ConvMessage): void => {
    const last = messages.at(-1);
    // Two messages of one side in a row are one turn to every target (Claude Code splits a reply into records); the
    // agent's summary stays apart from the typed words after it, which stay the title.
    if (last && last.role === 'user' && m.role === 'user' && last.summary === m.summary) messages[messages.length - 1] = { ...last, text: `${last.text}\n\n${m.text}` };
    else if (last && last.role === 'assistant' && m.role === 'assistant') messages[messages.length - 1] = { role: 'assistant', parts: [...last.parts, ...m.parts] };
    else messages.push(m);
  };
  let summaryRecords: ReadonlySet<number> | undefined;
  for (const m of cleaned.messages) {
    if (m.role === 'system') { notCarried.harness += m.blocks.length; continue; }
    // The rest of the history the agent's compaction wrote with its summary (Qwen Code's acknowledgment and the files
    // it re-attached) is part of that summary: its words join it, its acknowledgment is not a reply of the session.
    const ofSummary = summaryRecords !== undefined && m.records.length > 0 && m.records.every((r) => summaryRecords!.has(r));
    if (m.role === 'user') {
      const agentSummary = isAgentSummary(m);
      const words = userWords(agentSummary ? { ...m, blocks: m.blocks.filter((b) => b.type !== 'text') } : m, notCarried);
      if (agentSummary) summaryRecords = new Set(m.records);
      else if (!ofSummary) summaryRecords = undefined;
      if (words) push(agentSummary || ofSummary ? { role: 'user', text: words, summary: true } : { role: 'user', text: words });
      // Copilot CLI's summary message also carries the prompts typed before it: they stay prompts, after the summary,
      // where every target's own compaction keeps what it keeps (Claude Code, Gemini CLI: the summary opens the history).
      const carried = agentSummary ? userWords({ ...m, blocks: m.blocks.filter((b) => b.type === 'text') }, notCarried) : '';
      if (carried) push({ role: 'user', text: carried });
      continue;
    }
    if (ofSummary) continue;
    summaryRecords = undefined;
    const parts: ConvPart[] = [];
    for (const b of m.blocks) {
      if (b.type === 'text' || b.type === 'summary') { if (b.text.trim()) parts.push({ type: 'text', text: b.text }); continue; }
      if (b.type === 'reasoning') { if (b.opaqueBytes > 0) notCarried.encryptedReasoning++; else notCarried.reasoning++; continue; }
      if (b.type === 'meta') { notCarried.harness++; continue; }
      if (b.type === 'media') { notCarried.media++; parts.push({ type: 'text', text: `[${MARK}: an image (${b.mime}) was not carried over]` }); continue; }
      if (b.type === 'tool_result') continue; // travels with its call
      const result = results.get(b.id);
      if (result) used.add(b.id);
      parts.push(callPart(b, result, to, cleaned.cwd ?? original.cwd, ids, notCarried));
    }
    if (parts.length > 0) push({ role: 'assistant', parts });
  }
  // A result whose call was not kept (never the case after cleanup, which keeps pairs) is not sent alone.
  return { from: original.format, to, ...(target.modelProvider ? { modelProvider: target.modelProvider } : {}), ...(target.model ? { targetModel: target.model } : {}), cwd: original.cwd, title: original.title, model: original.models.at(-1), messages: leadingUser(messages), notCarried };
}

/**
 * A user message that is the agent's own compaction summary (not ours: a snapshot or summary of ours stays words), with
 * the prompts typed before it that it carries (Copilot CLI: copilot-cli/read.ts) or without.
 */
function isAgentSummary(m: Message): boolean {
  const said = m.blocks.filter((b) => b.type !== 'meta' && b.type !== 'text');
  return said.length > 0 && said.every((b) => b.type === 'summary' && b.origin === 'agent' && b.text.trim() !== '');
}

/** A user message's words: typed text, the snapshot or summary; harness blocks and media counted, not sent. */
function userWords(m: Message, notCarried: NotCarried): string {
  const words: string[] = [];
  for (const b of m.blocks) {
    if (b.type === 'text' || b.type === 'summary') { if (b.text.trim()) words.push(b.text); }
    else if (b.type === 'meta') notCarried.harness++;
    else if (b.type === 'media') { notCarried.media++; words.push(`[${MARK}: an image (${b.mime}) was not carried over]`); }
  }
  return words.join('\n\n');
}

/** A call mapped to the target's tool, or folded with its result into one line of words. */
function callPart(b: ToolCallBlock, result: ToolResultBlock | undefined, to: AgentId, cwd: string | undefined, ids: Set<string>, notCarried: NotCarried): ConvPart {
  const mapped = result ? mapToolCall(b, to, cwd) : undefined;
  if (!mapped || !result) {
    // A server-side call (Codex's web search) holds its own outcome: it has no result to wait for.
    if (result || b.standalone) notCarried.folded++; else notCarried.pending++;
    return { type: 'text', text: b.standalone ? `[${MARK}] ${b.name}(${b.inputText.slice(0, 400)})` : foldedText(b, result) };
  }
  return { type: 'call', id: callId(b.id, ids), name: mapped.name, input: mapped.input, result: { text: result.text, isError: result.isError } };
}

/** Ids every target's API accepts (Anthropic: [A-Za-z0-9_-]), unique in the conversation. */
function callId(id: string, ids: Set<string>): string {
  let safe = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'call';
  while (ids.has(safe)) safe = `${safe}_`;
  ids.add(safe);
  return safe;
}

const FOLD_RESULT_CHARS = 2000;

function foldedText(b: ToolCallBlock, result: ToolResultBlock | undefined): string {
  const args = b.inputText.length > 400 ? `${b.inputText.slice(0, 400)}…` : b.inputText;
  const head = `[${MARK}] ${b.name}(${args})`;
  if (!result) return `${head} (no result was recorded)`;
  const text = result.text.length > FOLD_RESULT_CHARS ? `${result.text.slice(0, FOLD_RESULT_CHARS)}… [${result.text.length - FOLD_RESULT_CHARS} more characters]` : result.text;
  return `${head} → ${result.isError ? 'error' : 'result'}:\n${text}`;
}

/** Every target starts a history with the user's side; a leading reply (a resumed fragment) gets a short note first. */
function leadingUser(messages: ConvMessage[]): ConvMessage[] {
  if (messages[0]?.role === 'user') return messages;
  return [{ role: 'user', text: `[${MARK}: this conversation continues one from another agent]` }, ...messages];
}
