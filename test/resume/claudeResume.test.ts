// The real Claude Code CLI, offline against a loopback Messages API, resumes our compacted transcript.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePath } from '../../src/node/agentStores';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { CLAUDE_SAMPLE } from '../support/fixtures';
import { agentEnv, jsonl, NEW_PROMPT } from './harness';
import { KEY, pickFacts, resumeSuite, type Facts, type Located } from './resumeSuite';
import { blocksOf, messagesApi, resultText, type ClaudeMessage } from './wire';

type Message = ClaudeMessage;

function fixtureFacts(file: string): Facts {
  const records = jsonl(file);
  const prompts: Located[] = [];
  const results: (Located & { id: string })[] = [];
  records.forEach((r, at) => {
    if (r.type !== 'user' || r.isMeta) return;
    const content = (r.message as Message).content;
    // A typed prompt: plain text that is not a harness tag such as <command-name> or <local-command-stdout>.
    if (typeof content === 'string') { if (!content.startsWith('<')) prompts.push({ at, text: content }); return; }
    for (const b of content) if (b.type === 'tool_result') results.push({ at, id: b.tool_use_id!, text: resultText(b.content) });
  });
  return pickFacts(records.find((r) => typeof r.sessionId === 'string')?.sessionId as string, prompts, results);
}

resumeSuite({
  agent: 'claude',
  title: 'Claude Code resumes a compacted transcript (real CLI, loopback API)',
  fixture: CLAUDE_SAMPLE,
  unit: 'messages',
  startFake: startFakeAnthropic,
  facts: fixtureFacts,
  prepare: (root, fake, facts) => {
    // Any cwd works: Claude Code finds sessions under the slug of the cwd it runs in (and then notes the
    // changed working directory in an "Environment update" system message, in both runs alike).
    const cwd = path.join(root, 'work');
    fs.mkdirSync(cwd);
    const env = agentEnv(path.join(root, 'home'), {
      ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
    });
    const stored = storePath('claude-code', facts.sessionId, cwd, new Date(), env);
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.copyFileSync(CLAUDE_SAMPLE, stored);
    return { env, cwd, stored };
  },
  // Our CLI writes the new session beside the original, i.e. into the same project folder.
  expectedOutput: (report) => path.join(path.dirname(report.input), `${report.sessionId}.jsonl`),
  resumeArgs: (id) => ['-p', '--resume', id, '--', NEW_PROMPT],
  ...messagesApi,
  fileToolIds: (file) => {
    // Claude Code stores one record per content block; side chains (subagents) are not resumed history.
    const blocks = jsonl(file).filter((r) => !r.isSidechain && (r.type === 'user' || r.type === 'assistant')).flatMap((r) => blocksOf(r.message as Message));
    return { calls: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id!), results: blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id!) };
  },
});
