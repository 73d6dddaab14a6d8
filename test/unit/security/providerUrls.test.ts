// Provider URLs: credentials never echoed, hopeless calls never retried, the OpenAI key never sent to another host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { checkBaseUrl, redactUrlCredentials } from '../../../src/core/summary/baseUrl';
import { toProviderError } from '../../../src/node/providers/sdkErrors';
import { cliInProcess } from '../../support/cliProcess';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { startFakeOpenAI } from '../../support/fakeOpenAI';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { KEY } from '../../support/providerAsserts';
import { tmpDir } from '../../support/tmp';

const PASSWORD = 'hunter2-Pa55word';

test('credentials in URLs are removed from any text: userinfo and key-like query values', () => {
  assert.equal(redactUrlCredentials(`at http://user:${PASSWORD}@host:8080/v1/x and https://tok@h/`), 'at http://[REDACTED]@host:8080/v1/x and https://[REDACTED]@h/');
  assert.equal(redactUrlCredentials('https://h/v1?api_key=abc&model=m&access_token=t#f'), 'https://h/v1?api_key=[REDACTED]&model=m&access_token=[REDACTED]#f');
  assert.equal(redactUrlCredentials('https://h/p?key=k1&sig=s'), 'https://h/p?key=[REDACTED]&sig=[REDACTED]');
  assert.equal(redactUrlCredentials('no url here: user@example.com'), 'no url here: user@example.com');
});

test('base URLs a request cannot succeed against are refused, naming them without credentials', () => {
  const bad: [string, RegExp][] = [
    [`http://user:${PASSWORD}@127.0.0.1:9/v1`, /carries credentials/],
    ['http://bad_host!x/v1', /malformed host name/],
    ['http://exa mple.com', /not a valid URL/],
    ['notaurl', /not a valid URL/],
    ['ftp://h/v1', /not http\(s\)/],
    [`ftp://u:${PASSWORD}@h/`, /not http\(s\)/],
    // No scheme: "alice:" parses as the scheme, the password as the path.
    [`alice:${PASSWORD}@127.0.0.1:9`, /not http\(s\)/],
    [`alice:${PASSWORD}@127.0.0.1:9/v1?x=1`, /not http\(s\)/],
    [` ${PASSWORD}@host`, /not a valid URL/],
    // A '/', '?', '#' or space in the password: where the userinfo ends cannot be told, all before the last '@' goes.
    [`alice:ab/${PASSWORD}+ef==@127.0.0.1:9`, /not http\(s\)/],
    [`alice:abc?${PASSWORD}@host`, /not http\(s\)/],
    [`alice:pa ss${PASSWORD}@host`, /not http\(s\)|not a valid URL/],
    [`https://alice:ab/${PASSWORD}@host/v1`, /not a valid URL|malformed host/],
    [`https://alice:a@b#${PASSWORD}@host/v1`, /not a valid URL|malformed host|carries credentials/],
  ];
  for (const [raw, why] of bad) {
    const r = checkBaseUrl(raw);
    assert.equal(r.ok, false, raw);
    assert.match(!r.ok ? r.reason : '', why);
    assert.doesNotMatch(!r.ok ? r.reason : '', new RegExp(PASSWORD));
  }
  for (const good of ['http://127.0.0.1:11434/v1', 'https://api.anthropic.com', 'http://[::1]:8080/v1', 'https://my_gw.internal.example/v1']) assert.equal(checkBaseUrl(good).ok, true, good);
});

test('a host that does not exist (ENOTFOUND) is final; a refused connection may be retried', () => {
  const conn = (code: string) => new OpenAI.APIConnectionError({ cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) }) });
  assert.equal(toProviderError(conn('ENOTFOUND'), OpenAI, 'openai', []).kind, 'other');
  assert.equal(toProviderError(conn('ECONNREFUSED'), OpenAI, 'openai', []).kind, 'network');
});

async function compact(env: NodeJS.ProcessEnv, dir: string, ...args: string[]) {
  const r = await cliInProcess(env, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/o.jsonl`, '--json', '--model', 'm', '--timeout', '20', ...args);
  const report = JSON.parse(r.stdout);
  // A summary asked for and not made (refused, failed) is exit 1 with the cleaned copy written; made: exit 0.
  assert.equal(r.code, report.summary?.error === undefined ? 0 : 1, r.stderr);
  return { ...r, report };
}

test('--base-url with user:password@: no request, no retry, the password in no report, warning or output', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  const dir = tmpDir(t);
  const url = fake.url.replace('http://', `http://admin:${PASSWORD}@`);
  const r = await compact({ ANTHROPIC_API_KEY: KEY }, dir, '--provider', 'anthropic', '--base-url', url);
  assert.equal(fake.requests.length, 0);
  assert.equal(r.report.modelCalls, 0);
  assert.equal(r.report.fallback, 'cleanup-only');
  assert.ok(r.report.warnings.some((w: string) => /carries credentials/.test(w) && w.includes('[REDACTED]@127.0.0.1')), r.report.warnings.join('\n'));
  assert.equal(`${r.stdout}${r.stderr}`.includes(PASSWORD), false);
  assert.equal(`${r.stdout}${r.stderr}`.includes('admin'), false);
});

for (const status of [401, 403, 404]) {
  test(`HTTP ${status} from the provider: one request, no retry`, async (t) => {
    const fake = await startFakeAnthropic(KEY);
    t.after(() => fake.close());
    fake.fallback = { kind: 'status', status, message: 'nope' };
    const r = await compact({ ANTHROPIC_API_KEY: KEY }, tmpDir(t), '--provider', 'anthropic', '--base-url', fake.url);
    assert.equal(fake.requests.length, 1);
    assert.equal(r.report.modelCalls, 1);
    assert.equal(r.report.summary.attempts, 1);
  });
}

test('the OpenAI key is never sent to a custom --base-url (a loopback server that records headers)', async (t) => {
  const fake = await startFakeOpenAI(KEY);
  t.after(() => fake.close());
  const dir = tmpDir(t);
  const r = await compact({ OPENAI_API_KEY: KEY }, dir, '--provider', 'openai', '--base-url', `${fake.url}/v1`, '--exact');
  assert.equal(fake.requests.length, 0, 'no request reached the third-party host');
  assert.ok(r.report.warnings.some((w: string) => /only to https:\/\/api\.openai\.com.*openai-compatible/.test(w)), r.report.warnings.join('\n'));
  assert.equal(r.report.exact.supported, false);
  // The compatible provider with its own key is the way to such a server, and it gets that key, not the OpenAI one.
  const other = 'sk-compatible-only-0000000000';
  const fake2 = await startFakeOpenAI(other);
  t.after(() => fake2.close());
  fake2.fallback = { kind: 'ok', text: '## Goal\nx' };
  await compact({ OPENAI_API_KEY: KEY, OPENAI_COMPATIBLE_API_KEY: other }, dir, '--provider', 'openai-compatible', '--base-url', `${fake2.url}/v1`);
  assert.ok(fake2.requests.length >= 1);
  for (const req of fake2.requests) assert.equal(JSON.stringify(req.headers).includes(KEY), false);
  assert.ok(fake2.requests.every((req) => req.auth === `Bearer ${other}`));
});
