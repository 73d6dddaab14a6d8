// The Codex VS Code extension and Codex Desktop put context before the person's words (`# Context from my IDE setup:`,
// `## Prior conversation with Codex:` …) and the words after `## My request for Codex:`. Real rollouts were titled by
// that context ("# Context from my IDE setup: ## Open tabs: - !README.md…", "## Prior conversation with Codex: {…").
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { titleFromText } from '../../../src/core/usage/title';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { scanDirs, tempDir } from './helpers';

const REAL = path.join(FIXTURES, 'real', 'codex');
const DESKTOP = path.join(REAL, 'idaho-0.118.0-alpha.2-desktop-prior-conversation.jsonl');
const VSCODE = path.join(REAL, 'idaho-0.118.0-alpha.2-vscode-ide-context.jsonl');
const FILES = path.join(REAL, 'idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
const TYPED = 'First verify that your assigned work in this thread is fully complete, no tool …';

test('a Codex Desktop session that opens with the prior conversation is titled by the request typed after it', async (t) => {
  assert.match(fs.readFileSync(DESKTOP, 'utf8'), /"message":"\\n## Prior conversation with Codex:\\n\{/);
  assert.equal((await readTranscriptFile(DESKTOP)).session.title, TYPED);
  const dir = tempDir(t);
  fs.copyFileSync(DESKTOP, path.join(dir, path.basename(DESKTOP)));
  const { report } = await scanDirs([dir]);
  assert.equal(report.sessions[0]?.title, TYPED);
});

test("the VS Code extension's IDE context or the files mentioned before a request: the request is the title", async () => {
  assert.equal((await readTranscriptFile(VSCODE)).session.title, 'Okay?');
  const prompts = [VSCODE, FILES].flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').flatMap((l) => {
    const o = l ? (JSON.parse(l) as { type?: string; payload?: { type?: string; message?: string } }) : {};
    const m = o.type === 'event_msg' && o.payload?.type === 'user_message' ? o.payload.message?.trim() ?? '' : '';
    return /^# (?:Context from my IDE setup|Files mentioned by the user):/.test(m) && m.includes('\n## My request for Codex:') ? [m] : [];
  }));
  assert.ok(prompts.length >= 5, `${prompts.length} prompts with context`);
  for (const p of prompts) {
    const title = titleFromText(p);
    // App mentions read as the `@name` they show (title.ts).
    const typed = p.slice(p.indexOf('\n## My request for Codex:') + 25).replace(/\[(@[^\]\n]{1,80})\]\(plugin:\/\/[^)\s]*\)/g, '$1').replace(/\s+/g, ' ').trim();
    // A screenshot sent with no words: nothing typed, no title (the next prompt gives it).
    if (typed === '') { assert.equal(title, undefined); continue; }
    assert.ok(title !== undefined && !title.startsWith('#'), `title ${title}`);
    assert.ok(typed.startsWith(title.replace(/…$/, '')), `${title} / ${typed.slice(0, 90)}`);
  }
});

test("the VS Code extension's review request: the code review guidelines before the request are not the title", async (t) => {
  const review = path.join(FIXTURES, 'codex', 'vscode-review-0.118', 'idaho-0.118.0-alpha.2-vscode-review-trimmed.jsonl');
  assert.match(fs.readFileSync(review, 'utf8'), /"message":"## Code review guidelines:\\n# Review guidelines:/);
  assert.equal((await readTranscriptFile(review)).session.title, 'Please review my uncommitted changes');
  const dir = tempDir(t);
  fs.copyFileSync(review, path.join(dir, path.basename(review)));
  const { report } = await scanDirs([dir]);
  assert.equal(report.sessions[0]?.title, 'Please review my uncommitted changes');
});
