// The OpenAI (Responses) and OpenAI-compatible (Chat Completions) summarizers, through the real SDK, against the fake.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPATIBLE_COUNT_UNSUPPORTED, createOpenAICompatibleSummarizer, createOpenAISummarizer } from '../../../src/node/providers/openai.js';
import type { Summarizer } from '../../../src/core/summary/provider.js';
import { DEFAULT_TEXT, type Fault, type FakeServer } from '../../support/fakeHttp.js';
import { startFakeOpenAI } from '../../support/fakeOpenAI.js';
import { assertNoSecret, KEY, never, rejectsWithKind } from '../../support/providerAsserts.js';

let fake: FakeServer;
before(async () => { fake = await startFakeOpenAI(KEY); });
after(() => fake.close());

const req = { system: 'You summarize.', prompt: 'The transcript text.', maxOutputTokens: 512 };
const base = () => `${fake.url}/v1`;

interface Variant { name: string; path: string; make: (apiKey?: string, timeoutMs?: number) => Summarizer; stream: boolean }
const variants: Variant[] = [
  { name: 'openai responses', path: '/v1/responses', stream: false, make: (apiKey = KEY, timeoutMs = 5000) => createOpenAISummarizer({ model: 'gpt-test', apiKey, baseUrl: base(), timeoutMs }) },
  { name: 'compatible stream', path: '/v1/chat/completions', stream: true, make: (apiKey = KEY, timeoutMs = 5000) => createOpenAICompatibleSummarizer({ model: 'llama-test', apiKey, baseUrl: base(), timeoutMs }) },
  { name: 'compatible json', path: '/v1/chat/completions', stream: false, make: (apiKey = KEY, timeoutMs = 5000) => createOpenAICompatibleSummarizer({ model: 'llama-test', apiKey, baseUrl: base(), timeoutMs, stream: false }) },
];

for (const v of variants) {
  test(`${v.name}: success returns text, usage and model; the key goes in Authorization`, async () => {
    const before = fake.requests.length;
    const result = await v.make().summarize(req, never());
    assert.equal(result.text, DEFAULT_TEXT);
    assert.equal(result.outputTokens, Math.ceil(DEFAULT_TEXT.length / 4));
    assert.equal(result.inputTokens, Math.ceil((req.system + req.prompt).length / 4));
    assert.ok(result.model === 'gpt-test' || result.model === 'llama-test');
    assertNoSecret(result);
    assert.equal(fake.requests.length, before + 1, 'maxRetries: 0 means one HTTP request');
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.path, v.path);
    assert.equal(sent.auth, `Bearer ${KEY}`);
    const body = sent.body as Record<string, unknown>;
    if (v.path === '/v1/responses') {
      assert.deepEqual(body, { model: 'gpt-test', instructions: req.system, input: req.prompt, max_output_tokens: 512, store: false });
    } else {
      assert.deepEqual(body.messages, [{ role: 'system', content: req.system }, { role: 'user', content: req.prompt }]);
      assert.equal(body.max_tokens, 512);
      assert.equal(body.stream, v.stream ? true : undefined);
    }
  });

  const cases: [Fault, Parameters<typeof rejectsWithKind>[1]][] = [
    [{ kind: 'status', status: 500 }, 'server'],
    [{ kind: 'status', status: 503 }, 'server'],
    [{ kind: 'unauthorized' }, 'auth'],
    [{ kind: 'too-long' }, 'too-long'],
    [{ kind: 'status', status: 400, message: "'temperature' is not supported" }, 'other'],
    [{ kind: 'invalid-json' }, 'malformed'],
    [{ kind: 'truncated' }, 'truncated'],
    [{ kind: 'empty' }, 'malformed'],
    [{ kind: 'cut' }, 'truncated'],
    ...(v.stream ? [[{ kind: 'end-early' }, 'truncated'] as [Fault, 'truncated']] : []),
  ];
  for (const [fault, kind] of cases) {
    test(`${v.name}: ${fault.kind}${fault.kind === 'status' ? ` ${fault.status}` : ''} -> ${kind}`, async () => {
      fake.script(fault);
      const e = await rejectsWithKind(v.make().summarize(req, never()), kind);
      if (fault.kind === 'status') assert.equal(e.status, fault.status);
    });
  }

  test(`${v.name}: 429 carries retry-after`, async () => {
    fake.script({ kind: 'rate-limit', retryAfter: '2' });
    const e = await rejectsWithKind(v.make().summarize(req, never()), 'rate-limit');
    assert.equal(e.retryAfterMs, 2000);
  });

  test(`${v.name}: a server that echoes a wrong key gets auth, and the key is redacted`, async () => {
    const wrong = 'sk-wrong-S3CRET-9876543210fedcba';
    const e = await rejectsWithKind(v.make(wrong).summarize(req, never()), 'auth');
    assertNoSecret(e, wrong);
    assert.match(e.message, /\[REDACTED\]/, 'the fake echoed the key, so the message must show the redaction');
  });

  test(`${v.name}: a hang ends in timeout at the SDK timeout`, async () => {
    fake.script({ kind: 'hang' });
    await rejectsWithKind(v.make(KEY, 300).summarize(req, never()), 'timeout');
  });
}

test('compatible: aborting the signal ends a hanging stream with aborted', async () => {
  fake.script({ kind: 'hang' });
  const ctl = new AbortController();
  setTimeout(() => ctl.abort(), 100);
  await rejectsWithKind(variants[1]!.make().summarize(req, ctl.signal), 'aborted');
});

test('compatible without a key still works (local servers need none)', async () => {
  const open = await startFakeOpenAI('no-key');
  try {
    const s = createOpenAICompatibleSummarizer({ model: 'llama', baseUrl: `${open.url}/v1`, timeoutMs: 5000 });
    assert.equal((await s.summarize(req, never())).text, DEFAULT_TEXT);
  } finally {
    await open.close();
  }
});

test('openai countTokens uses responses.inputTokens.count and returns the exact count', async () => {
  const input = { system: 'sys prompt', messages: [{ role: 'user' as const, content: 'hello there' }, { role: 'assistant' as const, content: 'hi!' }] };
  const n = await variants[0]!.make().countTokens!(input, never());
  assert.equal(n, Math.ceil('sys prompthello therehi!'.length / 4));
  const sent = fake.requests.at(-1)!;
  assert.equal(sent.path, '/v1/responses/input_tokens');
  assert.deepEqual(sent.body, { model: 'gpt-test', instructions: 'sys prompt', input: input.messages });
});

test('openai countTokens maps errors', async () => {
  fake.script({ kind: 'status', status: 500 });
  await rejectsWithKind(variants[0]!.make().countTokens!({ system: '', messages: [{ role: 'user', content: 'x' }] }, never()), 'server');
});

test('compatible countTokens reports unsupported and sends nothing', async () => {
  const s = variants[1]!.make();
  const before = fake.requests.length;
  assert.equal(await s.countTokens!({ system: 's', messages: [{ role: 'user', content: 'x' }] }, never()), undefined);
  assert.equal(s.countTokensUnsupported, COMPATIBLE_COUNT_UNSUPPORTED);
  assert.match(s.countTokensUnsupported ?? '', /not supported by this server/);
  assert.equal(fake.requests.length, before);
});
