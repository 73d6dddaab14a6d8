// Where the CLI finds API keys: one environment variable per provider, never shared between hosts.
import type { ProviderId } from '../../core/summary/provider.js';

// openai-compatible deliberately does not fall back to OPENAI_API_KEY: that would send the user's
// OpenAI key to whatever third-party host the base URL names.
export const API_KEY_ENV: Readonly<Record<ProviderId, string | undefined>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': 'OPENAI_COMPATIBLE_API_KEY',
  none: undefined,
};

/** The key for provider from env (default process.env); blank values count as absent. */
export function apiKeyFromEnv(provider: ProviderId, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = API_KEY_ENV[provider];
  const value = name ? env[name]?.trim() : undefined;
  return value ? value : undefined;
}
