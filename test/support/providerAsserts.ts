// Assertions shared by the provider tests: error kinds and "the key never leaks".
import assert from 'node:assert/strict';
import { ProviderError, type ProviderErrorKind } from '../../src/core/summary/provider.js';

export const KEY = 'sk-test-S3CRET-key-0123456789abcdef';

/** Fails if key appears in the value's message, stack or any enumerable field (serialised). */
export function assertNoSecret(value: unknown, key = KEY): void {
  const parts: string[] = [];
  if (value instanceof Error) parts.push(value.message, value.stack ?? '');
  parts.push(JSON.stringify(value, (_k, v: unknown) => (v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v)) ?? '');
  for (const part of parts) assert.equal(part.includes(key), false, `the API key leaked into: ${part.slice(0, 200)}`);
}

/** Awaits p, which must reject with a ProviderError of kind; returns the error (already checked for leaks). */
export async function rejectsWithKind(p: Promise<unknown>, kind: ProviderErrorKind): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    assert.equal(err.kind, kind, `expected kind ${kind}, got ${err.kind}: ${err.message}`);
    assert.equal(err.message.includes('\n'), false);
    assertNoSecret(err);
    return err;
  }
  assert.fail(`expected a ${kind} ProviderError, but the call succeeded`);
}

export const never = (): AbortSignal => new AbortController().signal;
