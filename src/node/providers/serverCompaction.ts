// The providers' own compaction through the official SDKs: Anthropic's on-demand `summarize` compaction (beta
// compact-2026-09-04), whose summary text we can read and write back, and OpenAI's `responses.compact`, whose
// compaction item is encrypted: we can only measure it.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { toAnthropicMessages, toResponsesInput } from '../../core/eval/wireMessages';
import type { Message } from '../../core/model/transcript';
import { ProviderError, type Summarizer, type SummaryResult } from '../../core/summary/provider';
import { ANTHROPIC_COMPACTION_BETA, serverCompactionUnsupported, type ServerCompactionConfig, type ServerCompacted } from './serverCompactionInfo';
import { anthropicClient } from './anthropic';
import { makeClient } from './openai';
import { toProviderError } from './sdkErrors';

export { ANTHROPIC_COMPACTION_BETA, serverCompactionUnsupported, type ServerCompactionConfig, type ServerCompacted } from './serverCompactionInfo';

/**
 * A Summarizer whose one "summary" is the server compaction of `input`, so the call runs under the same
 * retry/deadline policy as our own summary. The result's text is the summary (Anthropic) or '' (OpenAI).
 */
export function serverCompactor(config: ServerCompactionConfig, history: readonly Message[], onResult: (r: ServerCompacted) => void): Summarizer {
  if (config.provider === 'anthropic') {
    const client = anthropicClient({ apiKey: config.apiKey ?? '', baseUrl: config.baseUrl, timeoutMs: config.timeoutMs });
    const messages = toAnthropicMessages(history) as Anthropic.Beta.BetaMessageParam[];
    return {
      id: 'anthropic',
      async summarize(_req, signal): Promise<SummaryResult> {
        try {
          const msg = await client.beta.messages.create(
            { model: config.model, max_tokens: config.maxOutputTokens, messages, compaction: { type: 'summarize' }, betas: [ANTHROPIC_COMPACTION_BETA] },
            { signal },
          );
          const block = msg.content.find((b) => b.type === 'compaction');
          const text = block?.type === 'compaction' ? block.content : null;
          if (!text) throw new ProviderError('malformed', `anthropic: the compaction returned no summary (stop_reason ${msg.stop_reason ?? 'none'})`);
          // The compaction's own usage is an `iterations` entry; the top-level figures exclude it.
          const it = msg.usage.iterations?.find((u) => u.type === 'compaction');
          const r = { summary: text, inputTokens: it?.input_tokens ?? msg.usage.input_tokens, outputTokens: it?.output_tokens ?? msg.usage.output_tokens, model: msg.model };
          onResult(r);
          return { text, inputTokens: r.inputTokens, outputTokens: r.outputTokens, model: msg.model };
        } catch (err) {
          throw toProviderError(err, Anthropic, 'anthropic', [config.apiKey]);
        }
      },
    };
  }
  if (config.provider === 'openai') {
    const client = makeClient(config.apiKey ?? '', config.baseUrl, config.timeoutMs);
    const input = toResponsesInput(history) as OpenAI.Responses.ResponseInputItem[];
    return {
      id: 'openai',
      async summarize(_req, signal): Promise<SummaryResult> {
        try {
          const res = await client.responses.compact({ model: config.model, input }, { signal });
          const item = res.output.find((o) => o.type === 'compaction');
          if (!item || item.type !== 'compaction' || !item.encrypted_content) throw new ProviderError('malformed', 'openai: responses.compact returned no compaction item');
          // The output lists the user messages (typed as output messages, whose role the SDK types as assistant only).
          const kept = (res.output as unknown as { type: string; role?: string; content?: unknown }[]).flatMap((o) => (o.type === 'message' && o.role === 'user' ? [messageText(o.content)] : [])).filter(Boolean);
          const outputTokens = res.usage?.output_tokens;
          const r: ServerCompacted = {
            keptUserTexts: kept, inputTokens: res.usage?.input_tokens, outputTokens, model: config.model,
            // What resuming sends back is the encrypted item; its size in tokens is what the pass wrote.
            opaque: { encryptedChars: item.encrypted_content.length, tokens: outputTokens ?? Math.ceil(item.encrypted_content.length / 4) },
          };
          onResult(r);
          return { text: '(encrypted)', inputTokens: r.inputTokens, outputTokens, model: config.model };
        } catch (err) {
          throw toProviderError(err, OpenAI, 'openai', [config.apiKey]);
        }
      },
    };
  }
  throw new ProviderError('other', serverCompactionUnsupported(config.provider) ?? `${config.provider}: no server compaction`);
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: { text?: unknown }) => (typeof c?.text === 'string' ? c.text : '')).join('\n');
}
