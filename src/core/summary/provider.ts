// The summary-provider port: what the core asks of an LLM backend, and the typed failures it gets back.
import { redactUrlCredentials } from './baseUrl.js';
import { oneLine } from './redact.js';

export type ProviderId = 'anthropic' | 'openai' | 'openai-compatible' | 'none';

export interface SummaryRequest {
  system: string;
  prompt: string;
  maxOutputTokens: number;
}

export interface SummaryResult {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
  stopReason?: string;
  model: string;
}

export interface CountTokensInput {
  system: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
}

export interface Summarizer {
  readonly id: ProviderId;
  summarize(req: SummaryRequest, signal: AbortSignal): Promise<SummaryResult>;
  /** Exact input-token count from the provider, or undefined when it cannot say. */
  countTokens?(input: CountTokensInput, signal: AbortSignal): Promise<number | undefined>;
  /** Set when countTokens can never give an exact number, saying why (shown to the user instead of a count). */
  readonly countTokensUnsupported?: string;
}

export type ProviderErrorKind =
  | 'auth' | 'rate-limit' | 'server' | 'timeout' | 'network'
  | 'malformed' | 'truncated' | 'too-long' | 'aborted' | 'other';

// Retrying these cannot help: the key is wrong, the input will stay too long, the user said stop,
// or the request itself is invalid ('other' covers 400/404 and the like).
const FINAL_KINDS: ReadonlySet<ProviderErrorKind> = new Set<ProviderErrorKind>(['auth', 'too-long', 'aborted', 'other']);

export function isRetryable(kind: ProviderErrorKind): boolean {
  return !FINAL_KINDS.has(kind);
}

export interface ProviderErrorOptions {
  status?: number;
  retryAfterMs?: number;
}

/**
 * A failure of one provider call. The message is one line and must already be redacted of keys by whoever
 * builds it (see redact()); URL credentials are removed here. No `cause` is kept: SDK errors carry request details.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(kind: ProviderErrorKind, message: string, options: ProviderErrorOptions = {}) {
    // URLs in SDK messages may carry userinfo or ?key=…: never shown, whoever built the message.
    super(oneLine(redactUrlCredentials(message)));
    this.name = 'ProviderError';
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}
