// Session titles from real first prompts: the user's own words, never the wrappers an IDE or host app injected.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { titleFromContent, titleFromText } from '../../../src/core/usage/title';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { REPO_CORPUS as CORPUS } from '../../support/corpus';

/** The content of the first user record of a real transcript that is not a tool result. */
function firstPrompt(name: string): unknown {
  for (const line of readFileSync(path.join(CORPUS, 'claude-code', name), 'utf8').split('\n')) {
    if (!line.includes('"type":"user"')) continue;
    const content = (JSON.parse(line) as { message: { content: unknown } }).message.content;
    if (!Array.isArray(content) || !content.some((b: { type?: string }) => b.type === 'tool_result')) return content;
  }
  return assert.fail(`no prompt in ${name}`);
}

test('the VS Code extension\'s <ide_selection> / <ide_opened_file> blocks are skipped for the typed text (real sessions)', () => {
  assert.equal(titleFromContent(firstPrompt('bohack-2.0.29-images-2day.jsonl')), 'fastapi怎么稳定部署在服务器');
  assert.equal(titleFromContent(firstPrompt('bohack-2.0.29-compacted-images.jsonl')), '你好');
});

test('a host app\'s <system_instruction> before the prompt in the same block is cut (Conductor, real session)', () => {
  const title = titleFromContent(firstPrompt('a2a-hangzhou-1.0.69-sidechain-summary.jsonl'));
  assert.ok(title?.startsWith('o /Users/agents/Desktop/claude-20x/agents-a2a/.conductor/hangzhou/helloworld'), title);
  assert.doesNotMatch(title ?? '', /system_instruction|Conductor, a Mac app/);
});

test('wrappers in one string, several in a row, with attributes; only wrappers leave nothing', () => {
  assert.equal(titleFromText('<ide_opened_file>The user opened a.ts</ide_opened_file>\n<ide_selection>x</ide_selection> fix the  build'), 'fix the build');
  assert.equal(titleFromText('<environment_context cwd="/x">\n<cwd>/x</cwd>\n</environment_context>\nadd tests'), 'add tests');
  assert.equal(titleFromText('<ide_selection>only context</ide_selection>'), undefined);
  assert.equal(titleFromText('<user_instructions>be brief</user_instructions>'), undefined);
});

test('harness messages stay untitled; a tag a person typed stays in the title', () => {
  assert.equal(titleFromText('<command-name>/clear</command-name>\n<command-message>clear</command-message>'), undefined);
  assert.equal(titleFromText('<local-command-stdout>done</local-command-stdout>'), undefined);
  assert.equal(titleFromText('<system-reminder>x</system-reminder>'), undefined);
  assert.equal(titleFromText('<div>hello</div> is not centered'), '<div>hello</div> is not centered');
  assert.equal(titleFromText('<my_tag> unclosed, typed by hand'), '<my_tag> unclosed, typed by hand');
});

test('Codex app mentions: leading ones go, one inside a sentence reads as @name (a real Codex 0.118 prompt)', () => {
  const file = path.resolve('test/fixtures/real/codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
  const first = readFileSync(file, 'utf8').split('\n').map((l) => (l ? JSON.parse(l) : {})).find((r) => r.payload?.type === 'user_message');
  assert.equal(titleFromText(first.payload.message), 'CODEX -- AWAKEN -- THE CAPTAIN RINGS THE BELL!');
  assert.equal(titleFromText('close these? Those [@linear](plugin://linear@openai-curated) Mentions'), 'close these? Those @linear Mentions');
  assert.equal(titleFromText('[@slack](plugin://slack@openai-curated)'), '@slack', 'a prompt of mentions alone keeps them, as words');
  assert.equal(titleFromText('see [the docs](https://example.com)'), 'see [the docs](https://example.com)', 'other links are the person\'s own');
});

/** The texts of a real Codex rollout's user messages, in order (raw lines, not our reader). */
function codexPrompts(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; payload?: { type?: string; role?: string; content?: { text?: string }[] } })
    .filter((r) => r.type === 'response_item' && r.payload?.type === 'message' && r.payload.role === 'user').map((r) => (r.payload!.content ?? []).map((c) => c.text ?? '').join(''));
}

test('a spec-kit command template is titled by the arguments typed into it, never its headings or front matter (real Codex sessions)', async () => {
  // Codex 0.77, /speckit.implement with arguments under `## User Input`.
  const poker = path.join(CORPUS, 'codex', 'specify-poker-0.77.0.jsonl');
  const template = codexPrompts(poker).find((t) => t.includes('## User Input'))!;
  const typed = 'Please review completion of milestone 4. Complete milestone 5 when milestone 4 …'; // 80 characters at most
  assert.equal(titleFromText(template), typed);
  assert.equal((await readTranscriptFile(poker)).session.title, typed);
  // Codex 0.64, the same template with nothing typed: no title of its own, the next typed prompt is the session's.
  const brainbuddy = path.resolve('test/fixtures/real/codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl');
  assert.equal(titleFromText(codexPrompts(brainbuddy).find((t) => t.includes('## User Input'))!), undefined);
  assert.match((await readTranscriptFile(brainbuddy)).session.title ?? '', /^❯ uv run python -m pytest/);
  // Codex 0.40, the older template (front matter, `User input:` and `$ARGUMENTS` never filled in).
  const golfiq = path.resolve('test/fixtures/real/codex/golfiq-0.40.0-compacted-no-replacement-history.jsonl');
  assert.equal(titleFromText(codexPrompts(golfiq).find((t) => t.startsWith('---\ndescription:'))!), undefined);
  assert.match((await readTranscriptFile(golfiq)).session.title ?? '', /^\/constitutionProjekt: GolfIQ/);
  // The older template with arguments: the paragraph after `User input:`.
  assert.equal(titleFromText('---\ndescription: Plan.\n---\n\nThe user input to you can be provided directly by the agent or as a command argument - you **MUST** consider it.\n\nUser input:\n\nAdd a login page\n\nYou are planning…'), 'Add a login page');
});
