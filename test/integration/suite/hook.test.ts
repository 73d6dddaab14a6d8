// "Guard Claude Code's compaction": the command installs our SessionStart hook in Claude Code's settings (the test's
// CLAUDE_CONFIG_DIR), the installed command really answers a compaction, and uninstall takes it out again.
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { checkScreen, test } from '../harness.js';
import { activeExtension, fixture } from './fixtures.js';

interface Settings { hooks?: { SessionStart?: { matcher: string; hooks: { type: string; command: string }[] }[] } }

test('Guard Claude Code\'s compaction installs a hook that answers SessionStart:compact, and uninstall removes it', async () => {
  await activeExtension();
  const config = process.env.CLAUDE_CONFIG_DIR;
  assert.ok(config, 'the run points Claude Code at a throwaway config folder');
  const file = await vscode.commands.executeCommand<string | undefined>(CommandIds.guardInstall);
  assert.equal(file, path.join(config, 'settings.json'));
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Settings;
  const entry = settings.hooks?.SessionStart?.find((g) => g.matcher === 'compact');
  assert.ok(entry, JSON.stringify(settings));
  const command = entry.hooks[0]!.command;
  assert.match(command, /context-compactor-hook\.js" hook claude-code$/);

  // Run it the way Claude Code does (a shell, the hook's JSON on stdin) on the workspace's Claude Code session.
  const transcript = fixture('claude-session.jsonl').fsPath;
  const out = execSync(command, { input: JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: path.dirname(transcript), hook_event_name: 'SessionStart', source: 'compact' }), encoding: 'utf8', timeout: 30_000 });
  const answer = JSON.parse(out) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.equal(answer.hookSpecificOutput.hookEventName, 'SessionStart');
  assert.match(answer.hookSpecificOutput.additionalContext, /copied from its transcript by context-compactor/);

  const missing = await checkScreen(['compaction is guarded', 'Open settings.json'], 'hook-installed');
  assert.deepEqual(missing ?? [], [], 'test-results/hook-installed.png');
  await vscode.commands.executeCommand('notifications.clearAll');

  assert.equal(await vscode.commands.executeCommand<string | undefined>(CommandIds.guardUninstall), file);
  const after = JSON.parse(fs.readFileSync(file, 'utf8')) as Settings;
  assert.ok(!JSON.stringify(after).includes('context-compactor-hook.js'), JSON.stringify(after));
});
