// Maps errors of the Stainless-generated SDKs (Anthropic, OpenAI) to ProviderError, redacting secrets.
import { ProviderError, type ProviderErrorKind } from '../../core/summary/provider.js';
import { redact } from '../../core/summary/redact.js';
import { parseRetryAfter } from '../../core/summary/retryAfter.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of one SDK; both SDKs share this shape but not the classes themselves. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

interface ApiErrorFields {
  status?: number;
  headers?: { get(name: string): string | null };
  code?: string | null;
  errorCode?: string | null;
  apiMessage?: string | null;
  error?: unknown;
}

// Wording of context-length failures across Anthropic, OpenAI and compatible servers (vLLM, Ollama, LM Studio, OpenRouter).
const TOO_LONG = /prompt is too long|too long|context[ _-]?length|context window|maximum context|too many tokens|reduce the length|exceeds? the (model'?s? )?(max|limit)/i;

export function toProviderError(err: unknown, sdk: SdkErrorClasses, label: string, secrets: readonly (string | undefined)[]): ProviderError {
  if (err instanceof ProviderError) return err;
  const say = (kind: ProviderErrorKind, text: string, extra: { status?: number; retryAfterMs?: number } = {}): ProviderError =>
    new ProviderError(kind, redact(`${label}: ${text}`, secrets), extra);

  if (err instanceof sdk.APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) return say('aborted', 'request aborted');
  if (err instanceof sdk.APIConnectionTimeoutError) return say('timeout', 'request timed out');
  if (err instanceof sdk.APIConnectionError) {
    const cause = causeText(err);
    // The name does not exist (NXDOMAIN) or the URL cannot be requested at all: retrying cannot help.
    const final = cause === 'ENOTFOUND' || /includes credentials|Invalid URL/i.test(cause);
    return say(final ? 'other' : 'network', `could not connect (${cause})`);
  }
  if (err instanceof sdk.APIError) return fromStatus(err as Error & ApiErrorFields, say);
  if (err instanceof SyntaxError) return say('malformed', 'the answer was not valid JSON');
  // undici's "terminated": the connection dropped after the answer had begun, so the body is incomplete.
  if (err instanceof TypeError && /terminated|other side closed/i.test(err.message)) return say('truncated', 'the answer was cut off mid-body');
  if (err instanceof Error && /JSON|parse/i.test(err.message)) return say('malformed', `unreadable answer (${err.message})`);
  return say('other', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
}

function fromStatus(
  err: Error & ApiErrorFields,
  say: (kind: ProviderErrorKind, text: string, extra?: { status?: number; retryAfterMs?: number }) => ProviderError,
): ProviderError {
  const status = err.status;
  const detail = apiMessage(err);
  const text = status === undefined ? detail : `HTTP ${status}: ${detail}`;
  if (status === undefined) {
    // The SDKs raise status-less APIErrors for in-stream error events (e.g. Anthropic's overloaded_error mid-stream).
    return say(/overloaded|api_error|server/i.test(detail) ? 'server' : 'other', text);
  }
  const extra = { status };
  if (status === 401 || status === 403) return say('auth', text, extra);
  if (status === 429) {
    const retryAfterMs = err.headers ? parseRetryAfter((name) => err.headers?.get(name), Date.now()) : undefined;
    return say('rate-limit', text, retryAfterMs === undefined ? extra : { ...extra, retryAfterMs });
  }
  if (status === 408) return say('timeout', text, extra);
  if (status >= 500) return say('server', text, extra);
  const code = err.code ?? err.errorCode ?? '';
  if (status === 413 || code === 'context_length_exceeded' || TOO_LONG.test(detail)) return say('too-long', text, extra);
  return say('other', text, extra);
}

/** The server's own message when the body had one, else the SDK's message. */
function apiMessage(err: Error & ApiErrorFields): string {
  if (err.apiMessage) return err.apiMessage;
  const body = err.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  if (typeof body?.message === 'string') return body.message;
  if (typeof body?.error?.message === 'string') return body.error.message;
  return err.message;
}

function causeText(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? (cause as { cause?: unknown }).cause : undefined;
  const code = inner instanceof Error ? (inner as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.message : err.message;
}
