// The real Codex CLI, offline against a loopback Responses API, resumes our compacted rollout.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codexHome } from '../../src/node/agentStores';
import { startFakeCodexResponses } from '../support/fakeCodexResponses';
import { CODEX_SAMPLE } from '../support/fixtures';
import { codexLoopbackHome, jsonl, mentions, NEW_PROMPT } from './harness';
import { KEY, pickFacts, resumeSuite, type Facts, type Located } from './resumeSuite';
import { assertCodexPairs, codexCallIds, inputOf, isUserMessage, outputText, type CodexItem, type ResponsesBody } from './wire';

type Item = CodexItem;

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

resumeSuite({
  agent: 'codex',
  title: 'Codex resumes a compacted rollout (real CLI, loopback API)',
  fixture: CODEX_SAMPLE,
  unit: 'input items',
  startFake: startFakeCodexResponses,
  facts: fixtureFacts,
  prepare: (root, fake) => {
    // The fixture was recorded with the custom provider id "loopback"; Codex resumes a session only with
    // the provider it was made with, so the same id is declared here, pointed at the fake.
    const { cwd, env } = codexLoopbackHome(root, fake.url, KEY);
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
  toolCalls: (r) => codexCallIds(inputOf(r)).calls,
  fileToolIds: (file) => codexCallIds(jsonl(file).filter((l) => l.type === 'response_item').map((l) => l.payload as Item)),
  toolResults: (r) => new Map(inputOf(r).filter((i) => i.type.endsWith('_call_output')).map((i) => [i.call_id!, outputText(i.output)])),
  assertToolPairs: (r) => assertCodexPairs(inputOf(r)),
  afterResume: (report) => {
    assert.match(path.basename(report.output ?? ''), new RegExp(`^rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${report.sessionId}\\.jsonl$`));
    // Codex appended the resumed turn to our rollout and continued its `ordinal` numbering densely.
    const ordinals = jsonl(report.output!).map((l) => l.ordinal);
    assert.deepEqual(ordinals, ordinals.map((_, i) => i));
  },
});
