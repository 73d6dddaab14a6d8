// What eval needs to know of the providers' own compaction before (or without) loading an SDK.
import type { ProviderId } from '../../core/summary/provider';

export const ANTHROPIC_COMPACTION_BETA = 'compact-2026-09-04';

export interface ServerCompactionConfig {
  readonly provider: ProviderId;
  readonly model: string;
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly timeoutMs: number;
  readonly maxOutputTokens: number;
}

export interface ServerCompacted {
  /** Anthropic: the summary the server wrote (what a later request sends back first). */
  readonly summary?: string;
  /** OpenAI: the user messages the compacted output keeps, and the encrypted item's size. */
  readonly keptUserTexts?: readonly string[];
  readonly opaque?: { readonly encryptedChars: number; readonly tokens: number };
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly model: string;
}

/** Why a provider has no server-side compaction, or undefined when it has one. */
export function serverCompactionUnsupported(provider: ProviderId): string | undefined {
  if (provider === 'openai-compatible') return 'OpenAI-compatible servers have no compaction endpoint (responses.compact is OpenAI\'s own)';
  if (provider === 'none') return 'no provider configured';
  return undefined;
}
