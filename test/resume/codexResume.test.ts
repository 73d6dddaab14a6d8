// The real Codex CLI, offline against a loopback Responses API, resumes our compacted rollout.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codexHome } from '../../src/node/agentStores';
import { startFakeCodexResponses } from '../support/fakeCodexResponses';
import type { RecordedRequest } from '../support/fakeHttp';
import { CODEX_SAMPLE } from '../support/fixtures';
import { agentEnv, jsonl, mentions, NEW_PROMPT } from './harness';
import { KEY, pickFacts, resumeSuite, type Facts, type Located } from './resumeSuite';

interface Item { type: string; role?: string; call_id?: string; output?: unknown; content?: { type: string; text?: string }[] }
interface ResponsesBody { input: Item[]; tools?: unknown[] }

/** A tool output's text: a string, or (for some tools) a list of content items. */
const outputText = (output: unknown): string =>
  typeof output === 'string' ? output : Array.isArray(output) ? (output as { text?: string }[]).map((c) => c.text ?? '').join('') : '';
const inputOf = (r: RecordedRequest): Item[] => (r.body as ResponsesBody).input;
const isUserMessage = (i: Item): boolean => i.type === 'message' && i.role === 'user';

function fixtureFacts(file: string): Facts {
  const lines = jsonl(file);
  const prompts: Located[] = [];
  const results: (Located & { id: string })[] = [];
  lines.forEach((l, at) => {
    const p = l.payload as Item;
    if (l.type !== 'response_item') return;
    // A typed prompt; Codex's own <environment_context> is a user message too.
    const text = (p.content ?? []).map((c) => c.text ?? '').join('');
    if (isUserMessage(p) && !text.startsWith('<')) prompts.push({ at, text });
    if (p.type === 'function_call_output') results.push({ at, id: p.call_id!, text: outputText(p.output) });
  });
  return pickFacts((lines.find((l) => l.type === 'session_meta')?.payload as { id: string }).id, prompts, results);
}

function callIds(items: Item[]): { calls: string[]; results: string[] } {
  const ids = (outputs: boolean): string[] => items.filter((i) => i.call_id && i.type.endsWith('_call_output') === outputs && (outputs || i.type.endsWith('_call'))).map((i) => i.call_id!);
  return { calls: ids(false), results: ids(true) };
}

/**
 * The Responses API rule a resumed history must obey, or the real API answers 400 ("No tool output found
 * for function call …"): every *_call has exactly one *_call_output after it with its call_id, and every
 * output answers an earlier call. Returns the number of pairs.
 */
function assertToolPairs(input: Item[]): number {
  const calls = new Map<string, number>();
  const answered = new Set<string>();
  input.forEach((item, i) => {
    if (!item.call_id) return;
    if (item.type.endsWith('_call_output')) {
      assert.ok((calls.get(item.call_id) ?? Infinity) < i, `${item.type} ${item.call_id} (item ${i}) answers no earlier call`);
      assert.ok(!answered.has(item.call_id), `${item.call_id} is answered twice`);
      answered.add(item.call_id);
    } else if (item.type.endsWith('_call')) {
      assert.ok(!calls.has(item.call_id), `call ${item.call_id} appears twice`);
      calls.set(item.call_id, i);
    }
  });
  for (const id of calls.keys()) assert.ok(answered.has(id), `call ${id} has no output`);
  return calls.size;
}

resumeSuite({
  agent: 'codex',
  title: 'Codex resumes a compacted rollout (real CLI, loopback API)',
  fixture: CODEX_SAMPLE,
  unit: 'input items',
  startFake: startFakeCodexResponses,
  facts: fixtureFacts,
  prepare: (root, fake) => {
    const cwd = path.join(root, 'work');
    fs.mkdirSync(cwd);
    const env = agentEnv(path.join(root, 'home'), { CODEX_HOME: path.join(root, 'codex'), LOOPBACK_API_KEY: KEY });
    // The fixture was recorded with the custom provider id "loopback"; Codex resumes a session only with
    // the provider it was made with, so the same id is declared here, pointed at the fake.
    fs.mkdirSync(codexHome(env), { recursive: true });
    fs.writeFileSync(path.join(codexHome(env), 'config.toml'), [
      'model = "gpt-5.5"', 'model_provider = "loopback"', '[model_providers.loopback]', 'name = "loopback"',
      `base_url = "${fake.url}/v1"`, 'wire_api = "responses"', 'env_key = "LOOPBACK_API_KEY"', '',
    ].join('\n'));
    // Codex files sessions under sessions/YYYY/MM/DD/ by their start date, which the file name carries.
    const [, y, m, d] = /^rollout-(\d{4})-(\d{2})-(\d{2})T/.exec(path.basename(CODEX_SAMPLE)) ?? [];
    const stored = path.join(codexHome(env), 'sessions', y!, m!, d!, path.basename(CODEX_SAMPLE));
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.copyFileSync(CODEX_SAMPLE, stored);
    return { env, cwd, stored };
  },
  // Beside the original, under Codex's own rollout name: Codex finds a session by the id in the name.
  expectedOutput: (report) => path.join(path.dirname(report.input), path.basename(report.output ?? '')),
  resumeArgs: (id) => ['exec', '--skip-git-repo-check', 'resume', id, '--', NEW_PROMPT],
  isTurnRequest: (r) => {
    const b = r.body as Partial<ResponsesBody> | undefined;
    return r.path === '/v1/responses' && (b?.tools?.length ?? 0) > 0 && (b?.input ?? []).some((i) => isUserMessage(i) && mentions(i, NEW_PROMPT));
  },
  history: inputOf,
  lastUserTurn: (r) => inputOf(r).filter(isUserMessage).at(-1),
  toolCalls: (r) => callIds(inputOf(r)).calls,
  fileToolIds: (file) => callIds(jsonl(file).filter((l) => l.type === 'response_item').map((l) => l.payload as Item)),
  toolResults: (r) => new Map(inputOf(r).filter((i) => i.type.endsWith('_call_output')).map((i) => [i.call_id!, outputText(i.output)])),
  assertToolPairs: (r) => assertToolPairs(inputOf(r)),
  afterResume: (report) => {
    assert.match(path.basename(report.output ?? ''), new RegExp(`^rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${report.sessionId}\\.jsonl$`));
    // Codex appended the resumed turn to our rollout and continued its `ordinal` numbering densely.
    const ordinals = jsonl(report.output!).map((l) => l.ordinal);
    assert.deepEqual(ordinals, ordinals.map((_, i) => i));
  },
});
