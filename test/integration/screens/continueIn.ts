// The screens of "Continue in another agent…": the quick pick of the agents a session can continue in, then (Codex
// picked, its compaction diff accepted) the report of the session written into Codex's store, with its toast.
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import type { Screen } from './screens.js';
import { closeEditors, diffTabs, firstSession, openTabs, sessionsView, settle, waitFor } from './workbench.js';

export function continueInScreens(featured: readonly string[]): Screen[] {
  let pending: Thenable<unknown> | undefined;
  let continued: { output?: string; report?: { resumeCommand?: string; format?: string; from?: string } } | undefined;
  return [
    {
      // From the palette or a session's context menu: the targets compact --to offers, the session's own agent first.
      name: 'continue-in-pick',
      show: async () => {
        await closeEditors();
        const view = await sessionsView();
        pending = vscode.commands.executeCommand(CommandIds.continueIn, vscode.Uri.file(firstSession(view, featured).file));
        return { texts: ['in…', 'Codex', 'Gemini CLI', 'OpenCode', 'Goose'], pause: 1000, crop: '.quick-input-widget' };
      },
      done: async () => {
        // Codex (the second item) picked as a user does with the arrow keys and Enter; its diff accepted with the ✓.
        await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await waitFor(() => diffTabs().length > 0, 120_000);
        const right = diffTabs().map((t) => (t.input as vscode.TabInputTextDiff).modified)[0];
        if (!right || (await vscode.commands.executeCommand(CommandIds.compactAccept, right)) !== true) throw new Error('Continue in… opened no diff to accept');
        continued = (await Promise.race([pending, settle(120_000)])) as typeof continued;
        console.log(`continue-in: wrote ${continued?.output ?? '(nothing)'} (${continued?.report?.from} → ${continued?.report?.format}); resume: ${continued?.report?.resumeCommand || '(none)'}`);
      },
    },
    {
      // The report Accept opens: written into Codex's sessions, converted from Claude Code, what was not carried over,
      // the resume command; the toast offers Resume in terminal.
      name: 'continue-in',
      show: async () => {
        if (continued?.report?.format !== 'codex' || !continued.output) throw new Error(`the pick did not continue the session in Codex: ${JSON.stringify(continued?.report?.format)}`);
        await waitFor(() => openTabs().some((t) => t.input instanceof vscode.TabInputWebview), 20_000);
        return { texts: ['Written to', 'converted from Claude Code to Codex', continued.report.resumeCommand ?? 'codex'], pause: 1500 };
      },
      done: async () => { await closeEditors(); },
    },
  ];
}
