// createSummarizer's choices and configuration errors, and where the CLI finds keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSummarizer } from '../../../src/node/providers/createSummarizer.js';
import { apiKeyFromEnv } from '../../../src/node/providers/envKeys.js';
import { ProviderError } from '../../../src/core/summary/provider.js';
import { KEY } from '../../support/providerAsserts.js';

test("'none' gives no summarizer", () => {
  assert.equal(createSummarizer({ provider: 'none', model: '', timeoutMs: 1000 }), undefined);
});

test('each provider id gives a summarizer with that id', () => {
  assert.equal(createSummarizer({ provider: 'anthropic', model: 'm', apiKey: KEY, timeoutMs: 1000 })?.id, 'anthropic');
  assert.equal(createSummarizer({ provider: 'openai', model: 'm', apiKey: KEY, timeoutMs: 1000 })?.id, 'openai');
  const compat = createSummarizer({ provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 1000 });
  assert.equal(compat?.id, 'openai-compatible');
  assert.ok(compat?.countTokensUnsupported);
});

test('a hosted provider without a key is an auth error before any request', () => {
  for (const provider of ['anthropic', 'openai'] as const) {
    assert.throws(() => createSummarizer({ provider, model: 'm', timeoutMs: 1000 }), (e: unknown) => e instanceof ProviderError && e.kind === 'auth');
  }
});

test('unusable configurations are rejected', () => {
  const other = (e: unknown) => e instanceof ProviderError && e.kind === 'other';
  assert.throws(() => createSummarizer({ provider: 'openai-compatible', model: 'm', timeoutMs: 1000 }), other);
  assert.throws(() => createSummarizer({ provider: 'anthropic', model: ' ', apiKey: KEY, timeoutMs: 1000 }), other);
  assert.throws(() => createSummarizer({ provider: 'openai', model: 'm', apiKey: KEY, timeoutMs: 0 }), other);
});

test('apiKeyFromEnv reads one variable per provider and never lends the OpenAI key to other hosts', () => {
  const env = { ANTHROPIC_API_KEY: ' a-key ', OPENAI_API_KEY: 'o-key', OPENAI_COMPATIBLE_API_KEY: '' };
  assert.equal(apiKeyFromEnv('anthropic', env), 'a-key');
  assert.equal(apiKeyFromEnv('openai', env), 'o-key');
  assert.equal(apiKeyFromEnv('openai-compatible', env), undefined);
  assert.equal(apiKeyFromEnv('openai-compatible', { ...env, OPENAI_COMPATIBLE_API_KEY: 'c-key' }), 'c-key');
  assert.equal(apiKeyFromEnv('none', env), undefined);
});
