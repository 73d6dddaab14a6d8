// Summarizers over the official openai SDK: the Responses API for OpenAI, Chat Completions for compatible servers.
import OpenAI from 'openai';
import { ProviderError, type CountTokensInput, type Summarizer, type SummaryRequest, type SummaryResult } from '../../core/summary/provider.js';
import { COMPATIBLE_COUNT_UNSUPPORTED } from './compatibleServers.js';
import { toProviderError } from './sdkErrors.js';

export interface OpenAISummarizerOptions {
  model: string;
  apiKey: string;
  /** Defaults to the SDK's own (api.openai.com/v1, or OPENAI_BASE_URL). */
  baseUrl?: string;
  timeoutMs: number;
}

export interface OpenAICompatibleSummarizerOptions {
  model: string;
  /** Where the server's OpenAI-style API lives, usually ending in /v1 (Ollama: http://localhost:11434/v1). */
  baseUrl: string;
  /** Local servers (Ollama, LM Studio, vLLM) usually need none. */
  apiKey?: string;
  timeoutMs: number;
  /** Stream the answer (SSE). Default true. */
  stream?: boolean;
}

export const OPENAI_API_URL = 'https://api.openai.com/v1';

export { COMPATIBLE_COUNT_UNSUPPORTED };

export function createOpenAISummarizer(options: OpenAISummarizerOptions): Summarizer {
  const client = makeClient(options.apiKey, options.baseUrl, options.timeoutMs);
  const fail = (err: unknown): ProviderError => toProviderError(err, OpenAI, 'openai', [options.apiKey]);
  return {
    id: 'openai',
    async summarize(req: SummaryRequest, signal: AbortSignal): Promise<SummaryResult> {
      try {
        const response = await client.responses.create(
          // store: false, since a transcript summary is private and needs no server-side state.
          { model: options.model, instructions: req.system, input: req.prompt, max_output_tokens: req.maxOutputTokens, store: false },
          { signal },
        );
        if (response.status === 'incomplete') {
          const reason = response.incomplete_details?.reason ?? 'unknown';
          throw new ProviderError('truncated', `openai: the answer is incomplete (${reason})`);
        }
        if (response.status === 'failed') throw new ProviderError('server', `openai: the response failed (${response.error?.code ?? 'no code'})`);
        return nonEmpty('openai', {
          text: response.output_text ?? '',
          inputTokens: response.usage?.input_tokens,
          outputTokens: response.usage?.output_tokens,
          ...(response.status ? { stopReason: response.status } : {}),
          model: response.model,
        });
      } catch (err) {
        throw fail(err);
      }
    },
    async countTokens(input: CountTokensInput, signal: AbortSignal): Promise<number | undefined> {
      try {
        const counted = await client.responses.inputTokens.count(
          { model: options.model, instructions: input.system, input: input.messages.map((m) => ({ role: m.role, content: m.content })) },
          { signal },
        );
        return counted.input_tokens;
      } catch (err) {
        throw fail(err);
      }
    },
  };
}

export function createOpenAICompatibleSummarizer(options: OpenAICompatibleSummarizerOptions): Summarizer {
  // The SDK insists on a key; local servers ignore the header, so a placeholder is harmless.
  const apiKey = options.apiKey || 'no-key';
  const client = makeClient(apiKey, options.baseUrl, options.timeoutMs);
  const fail = (err: unknown): ProviderError => toProviderError(err, OpenAI, 'openai-compatible', [options.apiKey]);
  const stream = options.stream ?? true;
  return {
    id: 'openai-compatible',
    countTokensUnsupported: COMPATIBLE_COUNT_UNSUPPORTED,
    async summarize(req: SummaryRequest, signal: AbortSignal): Promise<SummaryResult> {
      const params = {
        model: options.model,
        // max_tokens, not max_completion_tokens: it is the one every compatible server understands.
        max_tokens: req.maxOutputTokens,
        messages: [{ role: 'system' as const, content: req.system }, { role: 'user' as const, content: req.prompt }],
      };
      try {
        const result = stream ? await chatStreamed(client, params, signal) : await chatWhole(client, params, signal);
        if (result.stopReason === 'length') {
          throw new ProviderError('truncated', `openai-compatible: the answer hit max_tokens after ${result.text.length} characters`);
        }
        return nonEmpty('openai-compatible', result);
      } catch (err) {
        throw fail(err);
      }
    },
    countTokens(): Promise<number | undefined> {
      return Promise.resolve(undefined);
    },
  };
}

/** The SDK client as every OpenAI call here uses it (also the eval's server compaction). */
export function makeClient(apiKey: string, baseUrl: string | undefined, timeoutMs: number): OpenAI {
  return new OpenAI({
    apiKey,
    // Explicit, so OPENAI_BASE_URL in the environment cannot redirect the key elsewhere.
    baseURL: baseUrl ?? OPENAI_API_URL,
    // Our call policy owns retries and the deadline; SDK retries would multiply the attempts.
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    // Never send the user's OpenAI organization/project ids (from the environment) to another host.
    organization: null,
    project: null,
  });
}

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

async function chatWhole(client: OpenAI, params: ChatParams, signal: AbortSignal): Promise<SummaryResult> {
  const completion = await client.chat.completions.create(params, { signal });
  const choice = completion.choices?.[0];
  if (!choice) throw new ProviderError('malformed', 'openai-compatible: the answer had no choices');
  return {
    text: choice.message?.content ?? '',
    inputTokens: completion.usage?.prompt_tokens,
    outputTokens: completion.usage?.completion_tokens,
    ...(choice.finish_reason ? { stopReason: choice.finish_reason } : {}),
    model: completion.model ?? params.model,
  };
}

async function chatStreamed(client: OpenAI, params: ChatParams, signal: AbortSignal): Promise<SummaryResult> {
  const chunks = await client.chat.completions.create({ ...params, stream: true }, { signal });
  let text = '';
  let model = params.model;
  let finish: string | undefined;
  let usage: OpenAI.CompletionUsage | undefined;
  try {
    for await (const chunk of chunks) {
      model = chunk.model || model;
      usage = chunk.usage ?? usage;
      const choice = chunk.choices?.[0];
      text += choice?.delta?.content ?? '';
      finish = choice?.finish_reason ?? finish;
    }
  } catch (err) {
    if (signal.aborted || err instanceof OpenAI.APIError || err instanceof SyntaxError) throw err;
    // The body broke off mid-stream: what arrived is an incomplete summary.
    throw new ProviderError('truncated', `openai-compatible: the stream was cut after ${text.length} characters`);
  }
  if (!finish) throw new ProviderError('truncated', `openai-compatible: the stream ended without a finish_reason, after ${text.length} characters`);
  return { text, inputTokens: usage?.prompt_tokens, outputTokens: usage?.completion_tokens, stopReason: finish, model };
}

function nonEmpty(label: string, result: SummaryResult): SummaryResult {
  if (result.text.trim() === '') throw new ProviderError('malformed', `${label}: the answer had no text`);
  return result;
}
