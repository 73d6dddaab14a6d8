// The manifest (package.json) and the code agree on command ids, settings, menus and build outputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CommandIds } from '../../src/vscode/commandIds.js';
import { SESSIONS_STATE_KEY, SESSIONS_VIEW_ID } from '../../src/vscode/viewIds.js';
import { settingDefaults, settingsSection, summaryProviders } from '../../src/vscode/settingKeys.js';

interface Manifest {
  main: string;
  engines: { vscode: string };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; when: string; contents: string }[];
    configuration: { properties: Record<string, { default?: unknown; enum?: unknown[]; scope?: string }> };
  };
  devDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;

test('contributes exactly the command ids declared in commandIds.ts', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(contributed, Object.values(CommandIds).sort());
});

test('every command shows as "Context Compactor: …" in the palette', () => {
  for (const c of manifest.contributes.commands) assert.equal(c.category, 'Context Compactor', c.command);
});

test('menus only name contributed commands', () => {
  const ids = new Set<string>(Object.values(CommandIds));
  for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
    for (const item of items) assert.ok(ids.has(item.command), `${menu}: ${item.command}`);
  }
});

test('inspect and compact sit in the editor title of .jsonl files', () => {
  const editorTitle = manifest.contributes.menus['editor/title'] ?? [];
  for (const id of [CommandIds.inspectTranscript, CommandIds.compactTranscript]) {
    const item = editorTitle.find((m) => m.command === id);
    assert.equal(item?.when, 'resourceExtname == .jsonl', id);
  }
});

test('settings in package.json match settingKeys.ts, defaults included', () => {
  const props = manifest.contributes.configuration.properties;
  const declared = Object.keys(props).sort();
  assert.deepEqual(declared, Object.keys(settingDefaults).map((k) => `${settingsSection}.${k}`).sort());
  for (const [key, value] of Object.entries(settingDefaults)) {
    assert.deepEqual(props[`${settingsSection}.${key}`]?.default, value, key);
  }
  assert.deepEqual(props[`${settingsSection}.summary.provider`]?.enum, [...summaryProviders]);
});

test('where the key goes (provider, base URL) is set by the user only: a workspace cannot point the key elsewhere', () => {
  const props = manifest.contributes.configuration.properties;
  // "application": user settings only (also read by a remote window); a repository's .vscode/settings.json is ignored.
  for (const key of ['summary.provider', 'summary.baseUrl']) assert.equal(props[`${settingsSection}.${key}`]?.scope, 'application', key);
});

test('engines.vscode and @types/vscode stay on 1.100, the VS Code the integration tests run', () => {
  assert.equal(manifest.engines.vscode, '^1.100.0');
  assert.match(manifest.devDependencies['@types/vscode'] ?? '', /^~1\.100\./);
  assert.equal(manifest.main, './dist/extension.js');
});

test('the Sessions view lives in its own activity-bar container with a monochrome SVG icon', () => {
  const container = manifest.contributes.viewsContainers.activitybar.find((c) => c.id === 'contextCompactor');
  assert.equal(container?.title, 'Context Compactor');
  assert.match(container?.icon ?? '', /^media\/.+\.svg$/);
  const svg = readFileSync(join(__dirname, '../..', container?.icon ?? ''), 'utf8');
  // VS Code paints activity-bar icons as a mask: colours other than currentColor would be a design mistake.
  assert.deepEqual(svg.match(/#[0-9a-f]{3,6}\b/gi), null);
  assert.deepEqual(manifest.contributes.views['contextCompactor']?.map((v) => [v.id, v.name]), [[SESSIONS_VIEW_ID, 'Sessions']]);
});

test('the empty-state welcome is keyed on the state the view sets, and its buttons are contributed commands', () => {
  const welcome = manifest.contributes.viewsWelcome.filter((w) => w.view === SESSIONS_VIEW_ID);
  assert.equal(welcome.length, 1);
  assert.equal(welcome[0].when, `${SESSIONS_STATE_KEY} == empty`);
  const links = [...welcome[0].contents.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
  assert.deepEqual(links, [CommandIds.addSessionRoot, CommandIds.refreshSessions]);
  assert.match(welcome[0].contents, /~\/\.claude\/projects.*CLAUDE_CONFIG_DIR.*~\/\.codex\/sessions.*CODEX_HOME.*sessionRoots/s);
});

test('session items offer inspect, compact, continue in another agent, composition, reveal, copy and run resume; inspect and compact inline; subagents the read-only ones', () => {
  const items = manifest.contributes.menus['view/item/context'] ?? [];
  const alsoSubagents = `view == ${SESSIONS_VIEW_ID} && viewItem =~ /^(session|subagent)/`;
  const forSessions = items.filter((m) => m.when === `view == ${SESSIONS_VIEW_ID} && viewItem =~ /^session/` || m.when === alsoSubagents);
  assert.deepEqual(items.filter((m) => m.when === alsoSubagents).map((m) => m.command), [CommandIds.inspectTranscript, CommandIds.showComposition, CommandIds.revealSessionFile]);
  const forGroups = items.filter((m) => m.when === `view == ${SESSIONS_VIEW_ID} && viewItem =~ /^(agent|project)$/`);
  assert.equal(forSessions.length + forGroups.length, items.length, 'every item action is scoped to session, agent or project items of this view');
  // Agent and project nodes evaluate every session under them (inline and in the menu).
  assert.deepEqual(forGroups.map((m) => [m.command, m.group?.startsWith('inline') ?? false]), [[CommandIds.evaluateCompaction, true], [CommandIds.evaluateCompaction, false]]);
  const menu = forSessions.filter((m) => !m.group?.startsWith('inline')).map((m) => m.command);
  assert.deepEqual(menu, [CommandIds.inspectTranscript, CommandIds.compactTranscript, CommandIds.continueIn, CommandIds.showComposition, CommandIds.revealSessionFile, CommandIds.copyResumeCommand, CommandIds.resumeInTerminal]);
  const inline = forSessions.filter((m) => m.group?.startsWith('inline')).map((m) => m.command);
  assert.deepEqual(inline, [CommandIds.inspectTranscript, CommandIds.compactTranscript]);
  const title = (manifest.contributes.menus['view/title'] ?? []).map((m) => m.command);
  assert.ok(title.includes(CommandIds.refreshSessions));
  assert.ok(title.includes(CommandIds.evaluateCompaction), 'the view title evaluates every session');
  for (const id of [CommandIds.filterSessions, CommandIds.clearSessionsFilter, CommandIds.sortSessions]) assert.ok(title.includes(id), id);
});
