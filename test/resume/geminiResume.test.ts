// Resume proof with the real Gemini CLI (pinned, offline against a loopback Gemini API): a compacted chat is listed
// and resumed by `gemini --resume <id>`, which sends the old history, paired, before the new prompt.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { isGeminiTurn, startFakeGemini, type GeminiPart } from '../support/fakeGemini';
import { GEMINI_MODEL, geminiBin, geminiProject } from '../support/geminiRun';
import { NEW_PROMPT } from './harness';
import { assertGeminiPairs, chatMessages, chatToolIds, contentsOf, geminiCalls, geminiResults, responseText, sentId } from './geminiWire';
import { KEY, pickFacts, resumeSuite, type Located } from './resumeSuite';

const FIXTURE_DIR = path.resolve(__dirname, '..', 'fixtures', 'gemini-cli');
const FIXTURE = path.join(FIXTURE_DIR, fs.readdirSync(FIXTURE_DIR).find((f) => /^session-.*\.jsonl$/.test(f))!);

/** Typed prompts and recorded results, in file order, read from the raw chat (not through our reader). */
function facts(file: string): ReturnType<typeof pickFacts> {
  const messages = chatMessages(file);
  const prompts: Located[] = [];
  const results: (Located & { id: string })[] = [];
  const seen = new Set<string>();
  const result = (at: number, recorded: string | undefined, name: string | undefined, r: Record<string, unknown> | undefined): void => {
    const id = recorded && sentId(recorded, name);
    if (id && r && !seen.has(id)) { seen.add(id); results.push({ at, id, text: responseText(r) }); }
  };
  messages.forEach((m, at) => {
    const content = Array.isArray(m.content) ? (m.content as GeminiPart[]) : [];
    const text = content.map((p) => p.text ?? '').join('');
    if (m.type === 'user' && text && !text.startsWith('<session_context>')) prompts.push({ at, text });
    // A result is recorded with its call (toolCalls[].result) and, since ~v0.5x, again as a user message.
    for (const tc of (m.toolCalls ?? []) as { id: string; name: string; result?: GeminiPart[] }[]) result(at, tc.id, tc.name, tc.result?.[0]?.functionResponse?.response);
    if (m.type === 'user') for (const p of content) result(at, p.functionResponse?.id, p.functionResponse?.name, p.functionResponse?.response);
  });
  const header = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!) as { sessionId: string };
  return pickFacts(header.sessionId, prompts, results);
}

/** The prepared project and environment, for the listing check in (a). */
let where: { cwd: string; env: NodeJS.ProcessEnv } | undefined;
resumeSuite({
  agent: 'gemini',
  title: `gemini --resume (Gemini CLI ${GEMINI_MODEL} session, real CLI)`,
  fixture: FIXTURE,
  unit: 'contents',
  startFake: (key) => startFakeGemini(key),
  facts,
  prepare(root, fake) {
    const { project, env, chats } = geminiProject(root, fake.url, KEY);
    const stored = path.join(chats, path.basename(FIXTURE));
    fs.copyFileSync(FIXTURE, stored);
    where = { env, cwd: project };
    return { env, cwd: project, stored };
  },
  // Beside the original, under the CLI's own name: it finds a chat by the id's first 8 characters in the name.
  expectedOutput: (report) => path.join(path.dirname(report.input), path.basename(report.output ?? '')),
  resumeArgs: (id) => ['-m', GEMINI_MODEL, '--yolo', '--resume', id, '-p', NEW_PROMPT],
  isTurnRequest: (r) => isGeminiTurn(r) && JSON.stringify(contentsOf(r).at(-1) ?? {}).includes(NEW_PROMPT),
  history: contentsOf,
  lastUserTurn: (r) => contentsOf(r).filter((c) => c.role === 'user').at(-1),
  toolCalls: (r) => geminiCalls(contentsOf(r)),
  fileToolIds: chatToolIds,
  toolResults: (r) => geminiResults(contentsOf(r)),
  assertToolPairs: (r) => assertGeminiPairs(contentsOf(r)),
  afterResume(report) {
    assert.match(path.basename(report.output ?? ''), new RegExp(`^session-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-${report.sessionId.slice(0, 8)}\\.jsonl$`));
    // The CLI appended the resumed turn to our chat: the new prompt and the fake's answer are recorded in it.
    const texts = JSON.stringify(chatMessages(report.output!));
    assert.ok(texts.includes(NEW_PROMPT), 'the resumed turn was not recorded in the compacted chat');
    // `gemini --list-sessions` (what `/resume` offers) shows it, by its full id.
    const listed = execFileSync(geminiBin(), ['--list-sessions'], { cwd: where!.cwd, env: where!.env, encoding: 'utf8', timeout: 120_000 });
    assert.ok(listed.includes(report.sessionId), `the compacted chat is not listed:\n${listed}`);
  },
});
