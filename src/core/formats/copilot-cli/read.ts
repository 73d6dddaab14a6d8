// Copilot CLI reader: the event log in order. The system prompt (`system.message`), prompts (`user.message`, as the
// model got them: `transformedContent`), replies with their tool requests (`assistant.message`, reasoning and its
// opaque blobs counted) and tool results (`tool.execution_complete`, joined by toolCallId); each reply's usage from
// the `session.usage_record` of the same request (apiCallId); a `session.compaction_complete` replaces the history
// before it with its summary.
import type { DocumentFile } from '../../agents/agent';
import type { Block, Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { LineParser, ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { stringifySafe } from '../../read/safeJson';
import { buildTurns } from '../../read/turns';
import { absurdUsageField, newReadNotes, noteWarnings } from '../../read/warnings';
import { estimateTokens } from '../../tokens/estimate';
import { sessionContextWindow } from '../../usage/contextWindow';
import { titleFromText } from '../../usage/title';
import { copilotCounts } from './usage';
import { isObj } from './detect';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** What the writer needs (Session.extra.copilot): each event, by line index. */
export interface CopilotExtra { readonly events: ReadonlyMap<number, Record<string, unknown>> }

/** The session of a log (the document reader's entry: the log is read whole, line by line). */
export function parseCopilotCli(files: readonly DocumentFile[], options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  const text = file.text;
  if (!text.trim()) throw new Error(`empty file: ${file.path}`);
  const parser = createCopilotCliParser(options);
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  let invalid = 0;
  lines.forEach((raw, i) => {
    let value: unknown;
    try { value = JSON.parse(raw); } catch { if (raw.trim()) invalid++; }
    parser.line(i, raw, value);
  });
  const warnings = invalid ? [`${invalid} line(s) are not valid JSON and were skipped`] : [];
  return parser.finish(endsWithNewline, warnings);
}

/** What a compaction carries of a prompt (the request after the real background one: `content` cut at 30,000 characters, marker included). */
const CARRIED_PROMPT_CHARS = 30_000;
const TRUNCATED = '...<truncated>...';

/** A prompt as the summary's message holds it: what was typed, cut as Copilot CLI 1.0.102 cuts it. */
function carriedPrompt(b: Block, typedText: string | undefined): Block {
  const typedWords = typedText ?? ('text' in b ? b.text : '');
  const text = typedWords.length > CARRIED_PROMPT_CHARS ? typedWords.slice(0, CARRIED_PROMPT_CHARS - TRUNCATED.length) + TRUNCATED : typedWords;
  return { type: 'text', text, ref: b.ref, tokens: estimateTokens(text) };
}

export function createCopilotCliParser(options: ReadOptions): LineParser {
  const records: RawRecord[] = [];
  let messages: Message[] = [];
  const usageByCall = new Map<string, { usage: Usage; window?: number }>();
  const notes = newReadNotes();
  const onTooDeep = notes.onTooDeep;
  let id = '', cwd: string | undefined, title: string | undefined, lastWindow: number | undefined, unsummarized = 0;
  const models: string[] = [];
  const events = new Map<number, Record<string, unknown>>();
  /** A compaction's attempt id → how many messages there were when it started (what its summary replaces). */
  const compactionStarts = new Map<string, number>();
  /** A prompt's block → what was typed (`content`, without the CLI's additions): what a compaction carries. */
  const typed = new Map<Block, string>();
  return {
    line(index, raw, value) {
      const type = isObj(value) ? str(value.type) ?? 'unknown' : 'invalid';
      records[index] = { raw: options.keepRaw && !options.linesKeptOutside ? raw : undefined, kind: type, inContext: false, id: isObj(value) && options.keepRaw ? str(value.id) : undefined };
      if (!isObj(value) || !isObj(value.data)) return;
      if (options.keepRaw) events.set(index, value);
      const d = value.data;
      const timestamp = str(value.timestamp);
      const ref = (i?: number): { record: number; index?: number } => (i === undefined ? { record: index } : { record: index, index: i });
      switch (type) {
        case 'session.start': id ||= str(d.sessionId) ?? ''; cwd ??= isObj(d.context) ? str(d.context.cwd) : undefined; break;
        case 'session.title_changed': title = str(d.title) ?? title; break;
        case 'session.compaction_start': { const attempt = str(d.compactionAttemptId); if (attempt) compactionStarts.set(attempt, messages.length); break; }
        case 'session.compaction_complete': {
          // Copilot CLI's own compaction (1.0.102, seen against a loopback model, test/fixtures/copilot-cli/README.md):
          // the next request sends the system prompt, one user message holding the prompts typed before the compaction
          // and the summary, then what came after its start — a background compaction (`trigger: "threshold"`) runs
          // while the task goes on, and the replies and results logged meanwhile stay, after the summary. A failed
          // attempt changes nothing.
          const text = str(d.summaryContent);
          // Applied but without its summary in the log (another version's event): the history is kept, and said so.
          if (d.success === true && !text) unsummarized++;
          if (d.success !== true || !text) break;
          const from = compactionStarts.get(str(d.compactionAttemptId) ?? '') ?? messages.length;
          const before = messages.slice(0, from), since = messages.slice(from);
          const prompts = before.flatMap((m) => (m.role === 'user' && !m.toolResultsOnly ? m.blocks.flatMap((b) => (b.type === 'text' ? [carriedPrompt(b, typed.get(b))] : [])) : []));
          const summary: Block = { type: 'summary', text, origin: text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref: ref(), tokens: estimateTokens(text) };
          // The compaction's event first: the message is written back from it (write.ts), not from the first prompt.
          const records = [index, ...before.flatMap((m) => (m.role === 'user' && !m.toolResultsOnly ? m.records.filter((r) => r !== index) : []))];
          // A reply logged while the compaction ran was asked with the whole history: its usage is not of this context.
          const after = since.map((m) => { if (!m.usage) return m; const { usage: _, ...rest } = m; return rest; });
          messages = [...before.filter((m) => m.role === 'system'), { role: 'user', blocks: [...prompts, summary], records, timestamp }, ...after];
          break;
        }
        case 'session.usage_record': {
          const u = isObj(d.usage) ? d.usage : undefined;
          const call = str(u?.apiCallId);
          if (!u || !call) break;
          const [input, output, cacheWrite, cacheRead] = copilotCounts(u);
          if (Number.isNaN(input + output + cacheWrite + cacheRead)) { notes.absurdUsage++; break; }
          const window = typeof u.maxPromptTokens === 'number' ? u.maxPromptTokens : undefined;
          usageByCall.set(call, { usage: { inputTokens: input, outputTokens: output, cacheCreationTokens: cacheWrite, cacheReadTokens: cacheRead }, window });
          break;
        }
        case 'system.message': {
          const text = str(d.content) ?? '';
          if (text) messages.push({ role: 'system', blocks: [{ type: 'meta', subtype: 'system-prompt', text, ref: ref(), tokens: estimateTokens(text) }], records: [index], timestamp });
          break;
        }
        case 'user.message': {
          const text = str(d.transformedContent) ?? str(d.content) ?? '';
          title ??= titleFromText(str(d.content) ?? '');
          if (!text) break;
          const block: Block = { type: 'text', text, ref: ref(), tokens: estimateTokens(text) };
          typed.set(block, str(d.content) ?? text);
          messages.push({ role: 'user', blocks: [block], records: [index], timestamp });
          break;
        }
        case 'assistant.message': {
          const blocks: Block[] = [];
          const opaque = (str(d.reasoningOpaque)?.length ?? 0) + (str(d.encryptedContent)?.length ?? 0);
          if (str(d.reasoningText) || opaque) blocks.push({ type: 'reasoning', text: str(d.reasoningText) ?? '', opaqueBytes: opaque, ref: ref(0), tokens: estimateTokens(str(d.reasoningText) ?? '') });
          if (str(d.content)) blocks.push({ type: 'text', text: d.content as string, ref: ref(1), tokens: estimateTokens(d.content as string) });
          (Array.isArray(d.toolRequests) ? d.toolRequests : []).forEach((t, i) => {
            if (!isObj(t)) return;
            const inputText = typeof t.arguments === 'string' ? t.arguments : stringifySafe(t.arguments ?? {}, onTooDeep);
            blocks.push({ type: 'tool_call', id: str(t.toolCallId) ?? '', name: str(t.name) ?? '', input: t.arguments ?? {}, inputText, ref: ref(2 + i), tokens: estimateTokens(inputText) + 8 });
          });
          if (blocks.length === 0) break;
          const model = str(d.model);
          if (model && !models.includes(model)) models.push(model);
          const recorded = usageByCall.get(str(d.apiCallId) ?? '');
          if (recorded?.window) lastWindow = recorded.window;
          messages.push({ role: 'assistant', blocks, records: [index], timestamp, model, apiId: str(d.apiCallId), ...(recorded ? { usage: recorded.usage } : {}) });
          break;
        }
        case 'tool.execution_complete': {
          const result = isObj(d.result) ? d.result : undefined;
          const error = isObj(d.error) ? str(d.error.message) : str(d.error);
          const text = str(result?.content) ?? error ?? (result ? stringifySafe(result, onTooDeep) : '');
          const block: Block = { type: 'tool_result', id: str(d.toolCallId) ?? '', text, isError: d.success === false, mediaCount: 0, persisted: false, ref: ref(), tokens: estimateTokens(text) + 4 };
          messages.push({ role: 'user', blocks: [block], records: [index], timestamp, toolResultsOnly: true });
          break;
        }
        default: break;
      }
    },
    finish(endsWithNewline, warnings) {
      // The CLI logs its system prompt after the first prompt, and again when it changes: the latest one heads every request.
      const system = messages.filter((m) => m.role === 'system').slice(-1);
      const live = repairToolPairs([...system, ...messages.filter((m) => m.role !== 'system')], warnings);
      for (const m of live) for (const r of m.records) records[r]!.inContext = true;
      if (unsummarized) warnings.push(`the log records ${unsummarized} compaction(s) by Copilot CLI without their summary; the history before them is shown whole`);
      warnings.push(...noteWarnings(notes));
      const last = [...live].reverse().find((m) => m.usage)?.usage;
      return {
        format: 'copilot-cli', id, cwd, title, models, records, messages: live, turns: buildTurns(live),
        recordedContext: last ? last.inputTokens + last.cacheReadTokens + last.cacheCreationTokens : undefined,
        contextWindow: sessionContextWindow('copilot-cli', models.at(-1), { recorded: lastWindow }),
        warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline, extra: { copilot: { events } satisfies CopilotExtra },
      } satisfies Session;
    },
  };
}
