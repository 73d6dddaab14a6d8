// GitHub Copilot Chat on real files (0.31.5 session JSON, 0.37.1 operation log; see test/fixtures/real/SOURCES.tsv):
// recognised by content outside their folder, tool rounds paired with results, no usage recorded (so estimated),
// `export --markdown`, and `compact` from the CLI writing a handoff the report says to paste into a new chat.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { pairsIntact } from '../../../src/core/compact/fidelity';
import { isCopilotSession } from '../../../src/core/formats/copilot-chat/detect';
import { stateFromSession } from '../../../src/core/usage/rows';
import { nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real', 'copilot-chat');
const JSON_0315 = path.join(REAL, 'gitai-0.31.5-claude-sonnet-4-agent.json');
const LOG_0371 = path.join(REAL, 'gitai-0.37.1-gpt-4o-agent-oplog.jsonl');
const AIDER = path.join(FIXTURES, 'real', 'aider', 'metadata-aider-0.86.1-diff-cost.aider.chat.history.md');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
  return { code, stdout, stderr };
}

const calls = (file: string): Promise<string[]> => readTranscriptFile(file).then(({ session }) =>
  session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.name] : []))));

test('real sessions copied out of chatSessions are recognised by content only; a name alone does not say', () => {
  for (const f of [JSON_0315, LOG_0371]) {
    assert.equal(isCopilotSession(f, nodeFs), true, f);
    assert.equal(isCopilotSession(f, nodeFsByName), false, f);
  }
});

test('0.31.5 JSON and 0.37.1 log: title, folder, model, tool rounds answered by their results, no usage recorded', async () => {
  const { session: flat } = await readTranscriptFile(JSON_0315);
  assert.equal(flat.id, '331fed7f-cfd6-409c-8502-06a56322b636');
  assert.deepEqual(flat.models, ['claude-sonnet-4']);
  assert.equal(flat.cwd, '/Users/svarlamov/projects/testing-git');
  assert.deepEqual(await calls(JSON_0315), ['replace_string_in_file', 'grep_search']);
  const { session: log } = await readTranscriptFile(LOG_0371);
  assert.equal(log.title, 'Adding a joke to jokes.csv file', 'the customTitle of the initial state');
  assert.deepEqual(log.models, ['gpt-4o']);
  assert.deepEqual(await calls(LOG_0371), ['read_file', 'insert_edit_into_file']);
  // The prompt-tsx tree of a result: a chunk's line break only where the text so far does not end a line.
  const read = log.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_result')!;
  assert.ok(read.type === 'tool_result' && read.text.includes('id,setup,punchline\n1,Why do programmers prefer dark mode?'), read.type === 'tool_result' ? read.text.slice(0, 400) : '');
  for (const s of [flat, log]) {
    assert.deepEqual(s.warnings, []);
    assert.ok(pairsIntact(s.messages, s.messages));
    assert.equal(s.messages.filter((m) => m.toolResultsOnly).length, 2, 'one result message per tool round');
    assert.ok(s.messages.every((m) => !m.usage), 'neither file records tokens');
    const state = stateFromSession(s);
    assert.equal(state.estimated, true, 'so usage is our estimate, labelled');
    assert.equal(state.rows.size, s.messages.filter((m) => m.role === 'assistant').length);
  }
});

for (const file of [JSON_0315, LOG_0371, AIDER]) {
  test(`export --markdown and compact on ${path.basename(file).slice(0, 34)}: a readable document; a handoff to paste`, async (t) => {
    const exported = await cli('export', file, '--markdown');
    assert.equal(exported.code, 0, exported.stderr);
    const { session } = await readTranscriptFile(file);
    assert.equal((exported.stdout.match(/^## \d+\. /gm) ?? []).length, session.messages.length);
    const out = path.join(tmpDir(t), 'handoff.md');
    const compacted = await cli('compact', file, '--out', out);
    assert.equal(compacted.code, 0, compacted.stderr);
    assert.match(compacted.stdout, /^- resume: handoff: paste into a new chat$/m);
    assert.match(fs.readFileSync(out, 'utf8'), /^# Handoff: continue this /);
    const json = await cli('compact', file, '--out', out, '--json');
    const report = JSON.parse(json.stdout) as { handoff: boolean; resumeCommand: string; pairsIntact: boolean; identifierRecall: number };
    assert.deepEqual([report.handoff, report.resumeCommand, report.pairsIntact], [true, '', true]);
    assert.ok(report.identifierRecall >= 0.9, String(report.identifierRecall));
  });
}
