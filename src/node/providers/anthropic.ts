// Summarizer over Anthropic's Messages API through the official SDK (JSON or SSE streaming).
import Anthropic from '@anthropic-ai/sdk';
import { ProviderError, type CountTokensInput, type Summarizer, type SummaryRequest, type SummaryResult } from '../../core/summary/provider.js';
import { toProviderError } from './sdkErrors.js';

export interface AnthropicSummarizerOptions {
  model: string;
  apiKey: string;
  /** Defaults to the SDK's own (api.anthropic.com, or ANTHROPIC_BASE_URL). */
  baseUrl?: string;
  /** Per-request timeout handed to the SDK; the call policy's deadline bounds the whole call. */
  timeoutMs: number;
  /** Stream the answer (SSE). Default true: long summaries then never trip idle timeouts in proxies. */
  stream?: boolean;
}

const LABEL = 'anthropic';

/** The SDK client as every Anthropic call here uses it (also the eval's server compaction). */
export function anthropicClient(options: Pick<AnthropicSummarizerOptions, 'apiKey' | 'baseUrl' | 'timeoutMs'>): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // Our call policy owns retries and the deadline; SDK retries would multiply the attempts.
    maxRetries: 0,
    timeout: options.timeoutMs,
    logLevel: 'off',
    openTelemetry: false,
  });
}

export function createAnthropicSummarizer(options: AnthropicSummarizerOptions): Summarizer {
  const client = anthropicClient(options);
  const secrets = [options.apiKey];
  const fail = (err: unknown): ProviderError => toProviderError(err, Anthropic, LABEL, secrets);
  const stream = options.stream ?? true;

  return {
    id: 'anthropic',
    async summarize(req: SummaryRequest, signal: AbortSignal): Promise<SummaryResult> {
      const params = {
        model: options.model,
        max_tokens: req.maxOutputTokens,
        system: req.system,
        messages: [{ role: 'user' as const, content: req.prompt }],
      };
      try {
        const result = stream ? await streamed(client, params, signal) : await whole(client, params, signal);
        return checked(result);
      } catch (err) {
        throw fail(err);
      }
    },
    async countTokens(input: CountTokensInput, signal: AbortSignal): Promise<number | undefined> {
      try {
        const counted = await client.messages.countTokens(
          { model: options.model, system: input.system, messages: input.messages },
          { signal },
        );
        return counted.input_tokens;
      } catch (err) {
        throw fail(err);
      }
    },
  };
}

type Params = Anthropic.MessageCreateParamsNonStreaming;

async function whole(client: Anthropic, params: Params, signal: AbortSignal): Promise<SummaryResult> {
  const message = await client.messages.create(params, { signal });
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return {
    text,
    inputTokens: message.usage.input_tokens,
    outputTokens: message.usage.output_tokens,
    ...(message.stop_reason ? { stopReason: message.stop_reason } : {}),
    model: message.model,
  };
}

async function streamed(client: Anthropic, params: Params, signal: AbortSignal): Promise<SummaryResult> {
  const events = await client.messages.create({ ...params, stream: true }, { signal });
  let text = '';
  let model = params.model;
  let inputTokens: number | undefined;
  let outputTokens: number | undefined;
  let stopReason: string | undefined;
  let finished = false;
  try {
    for await (const event of events) {
      if (event.type === 'message_start') {
        model = event.message.model;
        inputTokens = event.message.usage.input_tokens;
      } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        text += event.delta.text;
      } else if (event.type === 'message_delta') {
        stopReason = event.delta.stop_reason ?? stopReason;
        outputTokens = event.usage.output_tokens;
      } else if (event.type === 'message_stop') {
        finished = true;
      }
    }
  } catch (err) {
    if (signal.aborted || err instanceof Anthropic.APIError || err instanceof SyntaxError) throw err;
    // The body broke off mid-stream (socket reset, proxy cut): what arrived is an incomplete summary.
    throw new ProviderError('truncated', `${LABEL}: the stream was cut after ${text.length} characters`);
  }
  if (!finished) throw new ProviderError('truncated', `${LABEL}: the stream ended before message_stop, after ${text.length} characters`);
  return { text, inputTokens, outputTokens, ...(stopReason ? { stopReason } : {}), model };
}

/** Turns stop reasons that mean "no usable summary" into errors the policy understands. */
function checked(result: SummaryResult): SummaryResult {
  if (result.stopReason === 'max_tokens') {
    throw new ProviderError('truncated', `${LABEL}: the summary hit max_tokens after ${result.text.length} characters`);
  }
  if (result.stopReason === 'model_context_window_exceeded') {
    throw new ProviderError('too-long', `${LABEL}: the model's context window was exceeded`);
  }
  if (result.stopReason === 'refusal') throw new ProviderError('other', `${LABEL}: the model declined to summarize`);
  if (result.text.trim() === '') throw new ProviderError('malformed', `${LABEL}: the answer had no text`);
  return result;
}
