// The real Factory Droid CLI (npm @factory/cli-<platform>), offline against a loopback Messages API through a BYOK
// custom model, continues our compacted session from its store: `droid exec --fork <id>` loads the JSONL we wrote and
// sends its history with the new prompt. (`exec -s <id>` and the interactive `droid --resume` ask for a Factory
// login first, even with a custom model; the fork reads the same file without one.)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { FIXTURES } from '../support/fixtures';
import { agentEnv, jsonl, NEW_PROMPT } from './harness';
import { KEY, pickFacts, resumeSuite, type Located } from './resumeSuite';
import { blocksOf, messagesApi, resultText, type ClaudeMessage } from './wire';

const ID = 'bf09a340-8bf8-4f81-84fb-4ea7a0f3d05c';
const FIXTURE = path.join(FIXTURES, 'droid', `${ID}.jsonl`);
const messages = (file: string): ClaudeMessage[] => jsonl(file).filter((r) => r.type === 'message').map((r) => r.message as ClaudeMessage);

resumeSuite({
  agent: 'droid',
  title: 'Factory Droid continues a compacted session (real CLI, loopback API)',
  fixture: FIXTURE,
  unit: 'messages',
  startFake: startFakeAnthropic,
  facts: (file) => {
    const prompts: Located[] = [];
    const results: (Located & { id: string })[] = [];
    messages(file).forEach((m, at) => {
      for (const b of blocksOf(m)) {
        if (m.role === 'user' && b.type === 'text' && !b.text!.startsWith('<')) prompts.push({ at, text: b.text! });
        if (b.type === 'tool_result') results.push({ at, id: b.tool_use_id!, text: resultText(b.content) });
      }
    });
    return pickFacts(ID, prompts, results);
  },
  prepare: (root, fake) => {
    const cwd = path.join(root, 'work');
    const home = path.join(root, 'home');
    const store = path.join(home, '.factory', 'sessions', cwd.replace(/\//g, '-'));
    fs.mkdirSync(cwd);
    fs.mkdirSync(store, { recursive: true });
    for (const ext of ['.jsonl', '.settings.json']) fs.copyFileSync(path.join(FIXTURES, 'droid', ID + ext), path.join(store, ID + ext));
    fs.writeFileSync(path.join(home, '.factory', 'settings.json'), JSON.stringify({
      customModels: [{ model: 'claude-sonnet-4-5', displayName: 'Loopback', baseUrl: fake.url, apiKey: KEY, provider: 'anthropic', maxOutputTokens: 8192 }],
    }));
    return { env: agentEnv(home, {}), cwd, stored: path.join(store, `${ID}.jsonl`) };
  },
  // Beside the original, in the workspace's folder of Droid's store.
  expectedOutput: (report) => path.join(path.dirname(report.input), `${report.sessionId}.jsonl`),
  resumeArgs: (id) => ['exec', '--auto', 'high', '-m', 'custom:claude-sonnet-4-5', '--fork', id, NEW_PROMPT],
  ...messagesApi,
  fileToolIds: (file) => {
    const blocks = messages(file).flatMap(blocksOf);
    return { calls: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id!), results: blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id!) };
  },
});
