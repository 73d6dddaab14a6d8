// Turns the extension's settings snapshot into cleanup options and a summary configuration.
import { RULE_IDS, type CleanupOptions, type RuleId } from '../core/cleanup/types';
import type { ProviderId } from '../core/summary/provider';
import { contextWindowOf } from '../core/usage/catalog';
import type { SummaryConfig } from './summarizeStep';

export interface CompactSettings {
  readonly 'summary.provider': string;
  readonly 'summary.model': string;
  readonly 'summary.baseUrl': string;
  readonly 'summary.maxOutputTokens': number;
  readonly 'summary.timeoutSeconds': number;
  readonly 'cleanup.keepRecentTurns': number;
  readonly 'cleanup.keepRecentTokens': number;
  readonly 'cleanup.keepRecentResultTokens': number;
  readonly 'cleanup.rules': Readonly<Record<string, unknown>>;
}

/** The least summary room: the setting's minimum, and what `--max-output-tokens` takes (a provider refuses 0 outright). */
export const MIN_SUMMARY_OUTPUT = 256;

/** The summary model's input budget: its context window per the catalog, 150,000 when the catalog does not know it. */
export function defaultMaxInputTokens(model: string): number {
  return contextWindowOf(model) ?? 150_000;
}

export const DEFAULT_MODELS: Readonly<Record<ProviderId, string>> = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-5-mini', 'openai-compatible': '', none: '' };

/** `cleanup.rules`: `{ "drop-reasoning": false, "tool-records": { "headLines": 5 } }`; unknown ids are ignored. */
export function cleanupOptionsFrom(s: CompactSettings): CleanupOptions {
  const rules: NonNullable<CleanupOptions['rules']> = {};
  for (const [id, v] of Object.entries(s['cleanup.rules'] ?? {})) {
    if (!(RULE_IDS as readonly string[]).includes(id)) continue;
    if (typeof v === 'boolean') rules[id as RuleId] = { enabled: v };
    else if (typeof v === 'object' && v !== null) {
      const { enabled, ...params } = v as Record<string, unknown>;
      const numeric = Object.fromEntries(Object.entries(params).filter(([, x]) => typeof x === 'number')) as Record<string, number>;
      rules[id as RuleId] = { ...(typeof enabled === 'boolean' ? { enabled } : {}), params: numeric };
    }
  }
  const whole = (n: number): number => Math.max(0, Math.floor(n || 0));
  return { keepRecentTurns: whole(s['cleanup.keepRecentTurns']), keepRecentTokens: whole(s['cleanup.keepRecentTokens']), keepRecentResultTokens: whole(s['cleanup.keepRecentResultTokens']), rules };
}

export function summaryConfigFrom(s: CompactSettings, apiKey: string | undefined): SummaryConfig {
  const provider = (['anthropic', 'openai', 'openai-compatible', 'none'].includes(s['summary.provider']) ? s['summary.provider'] : 'none') as ProviderId;
  const model = s['summary.model'] || DEFAULT_MODELS[provider];
  return {
    provider, model, baseUrl: s['summary.baseUrl'] || undefined, apiKey,
    timeoutSeconds: Math.max(1, s['summary.timeoutSeconds']), maxOutputTokens: Math.max(MIN_SUMMARY_OUTPUT, s['summary.maxOutputTokens']), maxInputTokens: defaultMaxInputTokens(model),
  };
}
