// compact --to over the real Claude Code, Codex and Gemini CLI fixtures, every direction and into OpenCode and Goose:
// the written file, read back by the TARGET's reader, holds the latest request verbatim, the state snapshot, the recent
// tool calls as the target's own tools each with its result, and nothing of the source agent's harness context.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { AgentId } from '../../../src/core/model/ids';
import type { Session } from '../../../src/core/model/transcript';
import { resetStageRuns, stageRuns } from '../../../src/core/compact/stages';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, GEMINI_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

/** The latest typed request of each fixture, as the real CLI recorded it (read from the raw lines, not our reader). */
function latestRequest(file: string): string {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  const texts = file === GEMINI_SAMPLE
    ? lines.filter((m) => m.type === 'user' && Array.isArray(m.content)).map((m) => m.content.map((p: any) => p.text ?? '').join(''))
    : file === CODEX_SAMPLE
      ? lines.filter((l) => l.type === 'response_item' && l.payload.type === 'message' && l.payload.role === 'user').map((l) => l.payload.content.map((c: any) => c.text ?? '').join(''))
      : lines.filter((r) => r.type === 'user' && typeof r.message?.content === 'string').map((r) => r.message.content as string);
  return texts.filter((t) => t && !t.startsWith('<')).at(-1)!;
}

/** The target's own tools (what our conversion may call). */
const TOOLS: Record<string, readonly string[]> = {
  'claude-code': ['Bash', 'Read', 'Write', 'Edit', 'Grep', 'Glob'],
  codex: ['exec_command', 'apply_patch'],
  'gemini-cli': ['run_shell_command', 'read_file', 'write_file', 'replace', 'list_directory', 'grep_search', 'glob'],
  opencode: ['bash', 'read', 'write', 'edit', 'list', 'grep', 'glob'],
  goose: ['shell', 'write', 'edit', 'tree'],
};
/** Harness context each source agent injects: never carried into another agent's session. */
const HARNESS = ['<system-reminder>', '<environment_context>', '<session_context>', '<skills_instructions>'];

const texts = (s: Session): string => s.messages.flatMap((m) => m.blocks).map((b) => ('text' in b ? b.text : b.type === 'tool_call' ? b.inputText : '')).join('\n');

const SOURCES: [string, AgentId][] = [[CLAUDE_SAMPLE, 'claude-code'], [CODEX_SAMPLE, 'codex'], [GEMINI_SAMPLE, 'gemini-cli']];
const TARGETS: AgentId[] = ['claude-code', 'codex', 'gemini-cli', 'opencode', 'goose'];

for (const [file, from] of SOURCES) {
  for (const to of TARGETS.filter((t) => t !== from)) {
    test(`${from} → ${to}: the target reads back the latest request, the snapshot and paired calls of its own tools`, async (t) => {
      const dir = tmpDir(t);
      resetStageRuns();
      const p = await compactTranscript(file, { cleanup: { keepRecentTurns: 6 }, to, cwd: '/work/project', env: { HOME: dir } });
      // Under the target's own file name (Gemini CLI chats are known by name, in a chats folder).
      const out = path.join(dir, 'chats', path.basename(p.defaultOut));
      await writeCompaction(p, out, { createDir: true });
      const report = reportOf(p, out, {}, { HOME: dir });
      assert.equal(stageRuns.convert, 1, 'the convert stage runs once');
      assert.equal(stageRuns.render, 1);
      assert.equal(report.format, to);
      assert.equal(report.from, from);
      assert.equal(report.cwd, '/work/project', 'the continued folder is carried');
      const { session } = await readTranscriptFile(out);
      assert.equal(session.format, to, `the written file is not ${to}'s`);
      assert.equal(session.cwd ?? '/work/project', '/work/project');
      const all = texts(session);
      const latest = latestRequest(file);
      const lastUser = session.messages.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text')).at(-1);
      assert.ok(lastUser?.blocks.some((b) => b.type === 'text' && b.text.includes(latest)), `the latest request is not the last prompt: ${latest.slice(0, 80)}`);
      assert.ok(all.includes('state snapshot of the earlier part of this session'), 'the state snapshot is missing');
      for (const h of HARNESS) assert.ok(!all.includes(h), `${from}'s harness context ${h} was carried into ${to}`);
      const calls = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_call');
      const results = new Set(session.messages.flatMap((m) => m.blocks).flatMap((b) => (b.type === 'tool_result' ? [b.id] : [])));
      assert.ok(calls.length >= 4, `only ${calls.length} tool calls carried over`);
      for (const c of calls) {
        assert.ok(TOOLS[to]!.includes(c.name), `${c.name} is not one of ${to}'s tools`);
        assert.ok(results.has(c.id), `call ${c.id} (${c.name}) has no result`);
      }
      assert.equal(session.warnings.filter((w) => /orphan|unpaired|no result/i.test(w)).length, 0, session.warnings.join('; '));
    });
  }
}

test('a Codex session with apply_patch, images and web search: mapped where it can be, and the report says what was not carried', async (t) => {
  const dir = tmpDir(t);
  const file = path.join(__dirname, '..', '..', 'fixtures', 'real', 'codex', 'idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
  const p = await compactTranscript(file, { cleanup: { keepRecentTurns: 6 }, to: 'claude-code', env: { HOME: dir } });
  const out = path.join(dir, 'out.jsonl');
  await writeCompaction(p, out);
  const report = reportOf(p, out, {}, { HOME: dir });
  const said = (report.notCarried ?? []).join('\n');
  assert.match(said, /encrypted or signed reasoning/);
  assert.match(said, /folded with/);
  assert.match(said, /Codex's own context/);
  const written = fs.readFileSync(out, 'utf8');
  assert.ok(written.includes('[context-compactor] web_search'), 'the web search is folded into words');
  assert.ok(!written.includes('encrypted_content'));
});
