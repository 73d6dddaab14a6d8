// Aider and Copilot Chat in `usage` and the Sessions view: where discovery finds them (project folders, VS Code's
// workspaceStorage), recorded usage vs our labelled estimate, and what the tooltip says instead of a resume command.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { formatUsageTable } from '../../../src/core/usage/format';
import { buildSessionTree, sessionsOf } from '../../../src/node/sessions/treeModel';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real', 'aider');
const WITH_USAGE = path.join(REAL, 'metadata-aider-0.86.1-diff-cost.aider.chat.history.md');
const NO_USAGE = path.join(REAL, 'aiderexperiments-0.14.1-windows-2sessions.md');
const COPILOT = path.join(FIXTURES, 'copilot-chat', 'workspaceStorage');

/** A folder of projects, each with aider's history in its root (where aider writes it), and one nested too deep. */
function projects(root: string): void {
  for (const [dir, from] of [['api', WITH_USAGE], ['old', NO_USAGE], ['deep/er', WITH_USAGE]] as const) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.copyFileSync(from, path.join(root, dir, '.aider.chat.history.md'));
  }
}

test('aider: histories in a given folder\'s projects are found; recorded usage is priced, none is estimated and labelled', async (t) => {
  const root = tmpDir(t);
  projects(root);
  const { report } = await scanUsage({ env: { HOME: '/nonexistent-home' }, extraDirs: [root], includeDefaults: false, useCache: false });
  const byDir = new Map(report.sessions.map((s) => [path.basename(path.dirname(s.file)), s]));
  assert.deepEqual([...byDir.keys()].sort(), ['api', 'old'], 'a folder and its immediate subfolders, not deeper');
  const api = byDir.get('api')!;
  const old = byDir.get('old')!;
  assert.equal(api.agent, 'aider');
  assert.equal(api.estimated, undefined, 'aider 0.86 reports its tokens: recorded');
  assert.deepEqual([api.inputTokens, api.outputTokens, api.contextTokens], [73_600, 4_303, 10_000], 'the sum of its Tokens: reports; the last one sent');
  assert.ok(api.cost !== undefined && api.cost > 0, 'gpt-4o-mini is priced from the catalog');
  assert.equal(old.estimated, true, 'aider 0.14 reports nothing: estimated');
  // Each reply is a request whose input is the history before it: the inputs add up to more than the last context.
  assert.ok(old.outputTokens > 0 && old.contextTokens! > old.outputTokens && old.inputTokens > old.contextTokens!);
  const table = formatUsageTable(report);
  const rows = table.split('\n');
  assert.match(rows.find((l) => l.includes('AiderExperiments'))!, /~\$\d+\.\d\d +~[\d,]+( !)?$/, 'the estimated row is marked');
  assert.doesNotMatch(rows.find((l) => l.includes('gpt') || l.includes('aidar'))!, /~/, 'the recorded row is not');
  assert.match(table, /^~ estimated from the transcript's text: the agent records no usage/m);
  const tree = buildSessionTree(report.sessions, { threshold: 150_000, homeDir: '/nonexistent-home' });
  const oldNode = sessionsOf(tree).find((n) => n.session === old)!;
  assert.match(oldNode.tooltip, /Billed \(estimated from the transcript: the agent records no usage\)/);
  assert.match(oldNode.tooltip, /Resume: compact it to a handoff and paste that into a new chat/);
  assert.equal(oldNode.resumeCommand, undefined);
  // A history file named explicitly is scanned too (the VS Code workspace search passes files, not folders).
  const single = await scanUsage({ env: { HOME: '/nonexistent-home' }, extraDirs: [path.join(root, 'deep/er/.aider.chat.history.md')], includeDefaults: false, useCache: false });
  assert.deepEqual(single.report.sessions.map((s) => s.agent), ['aider']);
  assert.deepEqual(single.report.warnings, []);
});

test('a table of recorded usage only carries no estimate note', async (t) => {
  const root = tmpDir(t);
  fs.copyFileSync(WITH_USAGE, path.join(root, '.aider.chat.history.md'));
  const { report } = await scanUsage({ env: { HOME: '/nonexistent-home' }, extraDirs: [root], includeDefaults: false, useCache: false });
  assert.equal(report.sessions.length, 1);
  assert.doesNotMatch(formatUsageTable(report), /estimated from the transcript/);
});

test('copilot chat: found in every product\'s workspaceStorage by default (Linux layout via XDG_CONFIG_HOME), both forms', async (t) => {
  const config = tmpDir(t);
  for (const product of ['Code', 'Code - Insiders']) fs.cpSync(COPILOT, path.join(config, product, 'User', 'workspaceStorage'), { recursive: true });
  const env = { HOME: '/nonexistent-home', XDG_CONFIG_HOME: config };
  const { report } = await scanUsage({ env, extraDirs: [], includeDefaults: true, useCache: false });
  const copilot = report.sessions.filter((s) => s.agent === 'copilot-chat');
  // Each workspace folder holds the flat JSON and the operation log of different chats: both, in both products.
  assert.equal(copilot.length, 4, report.sessions.map((s) => s.file).join('\n'));
  assert.ok(copilot.some((s) => s.file.endsWith('.jsonl')) && copilot.some((s) => s.file.endsWith('.json')));
  assert.ok(copilot.every((s) => s.project !== undefined), 'the workspace folder from workspace.json');
  const tree = buildSessionTree(report.sessions, { threshold: 150_000, homeDir: '/nonexistent-home' });
  const nodes = sessionsOf(tree).filter((n) => n.session.agent === 'copilot-chat');
  assert.equal(nodes.length, 4);
  for (const n of nodes) {
    assert.equal(n.resumeCommand, undefined);
    assert.match(n.tooltip, /Resume: compact it to a handoff and paste that into a new chat/);
  }
  assert.ok(nodes.every((n) => !/estimated from the transcript/.test(n.tooltip)), 'promptTokens recorded: not an estimate');
});
