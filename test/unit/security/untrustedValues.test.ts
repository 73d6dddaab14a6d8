// Transcript-controlled values never reach a shell command, a path outside the agent store, or Markdown markup.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { renderCompactMarkdown } from '../../../src/core/compact/report';
import { renderReadable } from '../../../src/core/compact/renderReadable';
import { codeSpan, escapeProse, fenced } from '../../../src/core/text/markdown';
import { isSessionId, resumeCommandFor, storePath } from '../../../src/node/agentStores';
import { prepareCompaction, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { inspectFile } from '../../../src/node/inspectFile';
import { buildSessionTree, sessionsOf } from '../../../src/node/sessions/treeModel';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { EVIL_CWD, EVIL_ID, EVIL_TEXT, markupFromTranscript, renderMarkdownPreview, writeHostileTranscript } from '../../support/hostileTranscript';
import { tmpDir } from '../../support/tmp';
import { scanDirs } from '../usage/helpers';

test('resume commands only for UUID session ids (Claude Code v4, Codex v4/v7)', () => {
  assert.equal(resumeCommandFor('claude-code', 'ab9a2988-b392-46b5-a150-6191e63efe31'), 'claude --resume ab9a2988-b392-46b5-a150-6191e63efe31');
  assert.equal(resumeCommandFor('codex', '01a23770-bb97-7083-97f3-a496988e50fc'), 'codex resume 01a23770-bb97-7083-97f3-a496988e50fc');
  for (const id of [EVIL_ID, '$(id)', '`id`', 'ab9a2988-b392-46b5-a150-6191e63efe31\nrm -rf ~', ' ab9a2988-b392-46b5-a150-6191e63efe31', '', '../ab9a2988']) {
    assert.equal(isSessionId(id), false, id);
    assert.equal(resumeCommandFor('claude-code', id), undefined, id);
    assert.equal(resumeCommandFor('codex', id), undefined, id);
  }
});

test('a hostile session id in a scanned transcript: no resume command in the Sessions view or its tooltip', async (t) => {
  const dir = tmpDir(t);
  writeHostileTranscript(dir);
  const { report } = await scanDirs([dir]);
  assert.equal(report.sessions.length, 1);
  assert.equal(report.sessions[0]!.sessionId, EVIL_ID);
  const [node] = sessionsOf(buildSessionTree(report.sessions, { threshold: 150_000 }));
  assert.equal(node!.resumeCommand, undefined);
  assert.doesNotMatch(node!.tooltip, /curl/);
  assert.match(node!.tooltip, /Resume: not available/);
  assert.equal(markupFromTranscript(node!.tooltip), undefined);
});

test('paths built from a transcript stay inside the agent store; a relative cwd is refused', () => {
  const env = { HOME: '/home/ann' };
  const at = new Date(2026, 0, 2, 3, 4, 5);
  const id = 'ab9a2988-b392-46b5-a150-6191e63efe31';
  assert.throws(() => storePath('claude-code', id, EVIL_CWD, at, env), /not an absolute path/);
  assert.throws(() => storePath('claude-code', EVIL_ID, '/home/ann/repo', at, env), /not a session id/);
  assert.throws(() => storePath('codex', '../../x', undefined, at, env), /not a session id/);
  const projects = path.join('/home/ann', '.claude', 'projects') + path.sep;
  for (const cwd of ['/home/ann/../../../etc', '/a/b\\..\\..\\c', '/x/' + '../'.repeat(50)]) {
    const p = storePath('claude-code', id, cwd, at, env);
    assert.ok(p.startsWith(projects) && path.dirname(path.dirname(p)) + path.sep === projects, p);
  }
});

test('code spans and fences are longer than any backtick run inside', () => {
  assert.equal(codeSpan('a`b'), '``a`b``');
  assert.equal(codeSpan('`x'), '`` `x ``');
  assert.match(fenced('x\n````\ny'), /^`````text\nx\n````\ny\n`````$/);
  assert.equal(markupFromTranscript(codeSpan(EVIL_TEXT)), undefined);
  assert.equal(markupFromTranscript(fenced(EVIL_TEXT)), undefined);
});

test('a title escaped as prose keeps plain punctuation and still renders no markup, link or linkified name', () => {
  assert.equal(escapeProse('Task 1: fix the npm-workspace bug, "again" (v2)?'), 'Task 1: fix the npm-workspace bug, "again" (v2)?');
  assert.equal(escapeProse('1fb5e404-604d-4a2b'), '1fb5e404-604d-4a2b');
  for (const hostile of [EVIL_TEXT, 'see evil.com or www.evil.com', 'mail me: a@evil.com', 'http://evil.example/x and ftp://x.y', '<a href="x">y</a> $x$ &amp; ~~s~~ # h']) {
    const heading = `# ${escapeProse(hostile)}`;
    assert.equal(markupFromTranscript(heading), undefined, hostile);
    const html = renderMarkdownPreview(heading);
    assert.doesNotMatch(html, /<a\s|<del>|<s>|class="katex"/, `${hostile} -> ${html}`);
    assert.equal(html.split('\n').filter(Boolean).length, 1, 'one heading line');
  }
});

test('inspect, compaction report and readable previews render hostile transcript text as text', async (t) => {
  const dir = tmpDir(t);
  const file = writeHostileTranscript(dir);
  const inspected = await inspectFile(file);
  assert.match(inspected.markdown, /evil/, 'the hostile text is shown');
  assert.equal(markupFromTranscript(inspected.markdown), undefined);
  const p = await prepareCompaction(file, { keepRecentTurns: 2, keepRecentTokens: 0 });
  const report = reportOf({ ...p, warnings: [...p.warnings, `from the transcript: ${EVIL_TEXT}`] }, path.join(os.tmpdir(), 'o`ut.jsonl'));
  // The hostile cwd is no folder Claude Code could resume in: no command, and the report says why.
  assert.equal(report.resumeCommand, '');
  const md = renderCompactMarkdown(report);
  assert.match(md, /- resume: no command: Claude Code could not resume this copy/);
  assert.match(md, /evil/);
  assert.equal(markupFromTranscript(md), undefined);
  for (const s of [p.original, p.outcome.result]) {
    const preview = renderReadable(s, 'x.jsonl');
    assert.ok(preview.includes('onerror=alert(1)'), 'the text is there, verbatim');
    assert.equal(markupFromTranscript(preview), undefined);
  }
});

test('inspect Markdown: tool names and previews that look like links (evil.com, www.x.com/a) are never linkified', async (t) => {
  // VS Code's Markdown preview linkifies bare domains: a tool name or preview made only of letters and dots was
  // written into a table cell unescaped, and rendered as a clickable link.
  const LINKY = ['evil.com', 'www.x.com/a', 'http://x.y/z', '[a](command:x)'];
  const dir = tmpDir(t);
  const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').split('\n').filter(Boolean);
  let call = 0;
  let result = 0;
  const out = lines.map((l) => {
    const r = JSON.parse(l) as { message?: { content?: unknown } };
    for (const c of Array.isArray(r.message?.content) ? (r.message.content as Record<string, unknown>[]) : []) {
      if (c.type === 'tool_use') c.name = LINKY[call++ % LINKY.length];
      // Big results head the top items: a preview that starts with the link text, then plain words.
      if (c.type === 'tool_result') c.content = `${LINKY[result++ % LINKY.length]} ${'plain words '.repeat(2000)}`;
    }
    return JSON.stringify(r);
  });
  const file = path.join(dir, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  fs.writeFileSync(file, `${out.join('\n')}\n`);
  const { markdown } = await inspectFile(file);
  const html = renderMarkdownPreview(markdown);
  for (const text of LINKY) {
    const row = new RegExp(`<td[^>]*>${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`);
    assert.match(html, row, `${text} is shown as text in a cell`);
  }
  assert.match(html, /<td[^>]*>evil\.com<\/td>/, 'the tool column holds the name');
  assert.match(html, /<td[^>]*>evil\.com plain words/, 'the preview column holds the text');
  assert.doesNotMatch(html, /<a\s/, 'no link in the rendered report');
});

test('the usage cache (prompt titles, paths) is private: folder 0700, file 0600, even where it was 0755', async (t) => {
  const dir = tmpDir(t);
  writeHostileTranscript(dir);
  const cacheHome = path.join(dir, 'cache');
  fs.mkdirSync(path.join(cacheHome, 'context-compactor'), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.join(cacheHome, 'context-compactor'), 0o755);
  const umask = process.umask(0o022);
  try {
    await scanDirs([dir], { useCache: true, env: { HOME: '/nonexistent-home', XDG_CACHE_HOME: cacheHome } });
  } finally {
    process.umask(umask);
  }
  const mode = (p: string): number => fs.statSync(p).mode & 0o777;
  assert.equal(mode(path.join(cacheHome, 'context-compactor')), 0o700);
  assert.equal(mode(path.join(cacheHome, 'context-compactor', 'usage-v1.json')), 0o600);
});

test('a compacted transcript and the folders we create for it are private too', async (t) => {
  const dir = tmpDir(t);
  const file = writeHostileTranscript(dir);
  const p = await prepareCompaction(file, { keepRecentTurns: 2, keepRecentTokens: 0 });
  const out = path.join(dir, 'new', 'deeper', 'o.jsonl');
  await writeCompaction(p, out, { createDir: true });
  assert.equal(fs.statSync(out).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.join(dir, 'new')).mode & 0o777, 0o700);
});
