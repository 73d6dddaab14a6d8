// Builds the configured Summarizer; the only place that knows which SDK serves which provider (loaded on first use).
import { checkBaseUrl, isOpenAIHost } from '../../core/summary/baseUrl.js';
import { ProviderError, type ProviderId, type Summarizer } from '../../core/summary/provider.js';
import { COMPATIBLE_COUNT_UNSUPPORTED } from './compatibleServers.js';
import { lazySummarizer } from './lazySummarizer.js';

export interface SummarizerConfig {
  provider: ProviderId;
  model: string;
  baseUrl?: string;
  /** Comes from the caller (CLI: envKeys.ts; VS Code: SecretStorage), never from this module. */
  apiKey?: string;
  /** Per-request timeout; the call policy's deadline bounds the whole call. */
  timeoutMs: number;
  /** Stream the answer where the provider supports it (anthropic, openai-compatible). Default true. */
  stream?: boolean;
}

/**
 * Returns undefined for 'none' (rule-based compaction only). Throws ProviderError('auth') when a
 * hosted provider has no key, and ProviderError('other') for an unusable configuration, before any
 * network traffic.
 */
export function createSummarizer(config: SummarizerConfig): Summarizer | undefined {
  const { provider, model, baseUrl, apiKey, timeoutMs, stream } = config;
  if (provider === 'none') return undefined;
  if (!model.trim()) throw new ProviderError('other', `${provider}: no model configured`);
  if (!(timeoutMs > 0)) throw new ProviderError('other', `${provider}: timeoutMs must be positive`);
  // A URL no request can succeed against fails here, once, instead of as three "network" attempts.
  const checked = baseUrl ? checkBaseUrl(baseUrl) : undefined;
  if (checked && !checked.ok) throw new ProviderError('other', `${provider}: ${checked.reason}`);
  // README: an OpenAI key is never sent to a third-party base URL (other servers: openai-compatible, own key).
  if (provider === 'openai' && checked?.ok && !isOpenAIHost(checked.url)) {
    throw new ProviderError('other', `openai: the OpenAI key is sent only to https://api.openai.com, not to ${checked.url.host}; for another server use the openai-compatible provider with its own key`);
  }
  switch (provider) {
    case 'anthropic':
      if (!apiKey) throw new ProviderError('auth', 'anthropic: no API key (set ANTHROPIC_API_KEY)');
      return lazySummarizer(provider, async () => (await import('./anthropic.js')).createAnthropicSummarizer({ model, apiKey, timeoutMs, ...(baseUrl ? { baseUrl } : {}), ...(stream === undefined ? {} : { stream }) }));
    case 'openai':
      if (!apiKey) throw new ProviderError('auth', 'openai: no API key (set OPENAI_API_KEY)');
      return lazySummarizer(provider, async () => (await import('./openai.js')).createOpenAISummarizer({ model, apiKey, timeoutMs, ...(baseUrl ? { baseUrl } : {}) }));
    case 'openai-compatible':
      if (!baseUrl) throw new ProviderError('other', 'openai-compatible: no base URL (e.g. http://localhost:11434/v1)');
      return lazySummarizer(provider, async () => (await import('./openai.js')).createOpenAICompatibleSummarizer({ model, baseUrl, timeoutMs, ...(apiKey ? { apiKey } : {}), ...(stream === undefined ? {} : { stream }) }), COMPATIBLE_COUNT_UNSUPPORTED);
    default: {
      const unknown: never = provider;
      throw new ProviderError('other', `unknown provider ${String(unknown)}`);
    }
  }
}
