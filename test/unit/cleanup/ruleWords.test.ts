// Rules speak plain words: a human name and a description without parameter names, used wherever rules are shown.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { renderCompactMarkdown } from '../../../src/core/compact/report';
import { RULES, ruleLabel } from '../../../src/core/cleanup/rules';
import { RULE_IDS } from '../../../src/core/cleanup/types';
import { TERMS_LINE } from '../../../src/core/inspect/terms';
import { renderInspect } from '../../../src/core/inspect/renderText';
import { cleanupPreview } from '../../../src/node/analysisView';
import { compactFile } from '../../../src/node/compactFile';
import { inspectFile } from '../../../src/node/inspectFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

test('every rule has a human name and a plain description: no ids, no parameter names, no camelCase', () => {
  assert.deepEqual(RULES.map((r) => r.id).sort(), [...RULE_IDS].sort());
  for (const r of RULES) {
    assert.match(r.label, /^[A-Z][a-z]+(?: [a-z]+)+$/, r.id);
    assert.notEqual(r.label.toLowerCase().replace(/ /g, '-'), r.id);
    for (const p of Object.keys(r.defaults)) assert.ok(!r.description.includes(p), `${r.id} names its parameter ${p}`);
    assert.doesNotMatch(r.description, /\b[a-z]+[A-Z]\w*\b|\b[a-z]+-[a-z]+-[a-z]+\b/, `${r.id}: ${r.description}`);
    assert.equal(ruleLabel(r.id), r.label);
  }
});

test('the compaction report and the Cleanup tab show rule names; JSON keeps the ids', async (t) => {
  const report = await compactFile(CLAUDE_SAMPLE, { cleanup: { keepRecentTurns: 6 }, out: path.join(tmpDir(t), 'o.jsonl') });
  assert.deepEqual(Object.keys(report.rules).sort(), [...RULE_IDS].sort());
  const md = renderCompactMarkdown(report);
  assert.match(md, /\| Shrink old tool calls and results \| \d+ \| [\d,]+ \|/);
  for (const id of RULE_IDS) assert.ok(!md.includes(`| ${id} |`), `${id} shown as an id`);
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  const rows = cleanupPreview(session, { keepRecentTurns: 6, keepRecentTokens: 0, rules: {} }, { keepRecentTurns: 6 }).rules;
  assert.deepEqual(rows.map((r) => r.label), RULES.map((r) => r.label));
});

test('harness and history are defined in one line wherever they appear: inspect text and Markdown, compaction report', async (t) => {
  assert.equal(TERMS_LINE, 'harness = system prompt + tool definitions (and the initial context an agent re-sends), re-sent every request; compaction cannot cut it; history = everything else (prompts, replies, tool calls and results): what compaction acts on.');
  const inspected = await inspectFile(CLAUDE_SAMPLE);
  assert.ok(renderInspect(inspected.json, false).includes(`${TERMS_LINE} The system kind holds the harness and injected instructions.`));
  assert.ok(inspected.markdown.includes(TERMS_LINE));
  const report = await compactFile(CLAUDE_SAMPLE, { cleanup: { keepRecentTurns: 6 }, out: path.join(tmpDir(t), 'o.jsonl') });
  assert.ok(renderCompactMarkdown(report).includes(`- ${TERMS_LINE}`));
});

test('the rules setting names every rule in words in the settings editor (ids stay the keys)', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { properties?: Record<string, { markdownDescription: string }> }> } } };
  const props = manifest.contributes.configuration.properties['contextCompactor.cleanup.rules']!.properties!;
  assert.deepEqual(Object.keys(props), RULES.map((r) => r.id));
  for (const r of RULES) assert.equal(props[r.id]!.markdownDescription, `**${r.label}**: ${r.description}.`);
});
