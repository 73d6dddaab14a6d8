// The screens `npm run screens` photographs, in order: one entry per screen; add a screen here and nowhere else.
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import type { ScreenView } from '../harness.js';
import { allNodes, closeEditors, extensionApi, firstSession, openTabs, revealTree, sessionsView, settle, treeLabel, waitFor, whenSettled } from './workbench.js';

/**
 * What to photograph once `show` has run: texts that must be on the page first (the screen is checked, too), and
 * `crop`, a part of the workbench also saved alone as <theme>-<name>-crop.png (the pictures docs/ takes).
 */
export interface Shot extends ScreenView {
  readonly texts?: readonly string[];
  readonly crop?: string;
}

const SIDE_BAR = '[id="workbench.parts.sidebar"]';
const EDITOR = '[id="workbench.parts.editor"]';

export interface Screen {
  readonly name: string;
  /** Sets the screen up and says what the picture must show; `done` (optional) leaves it afterwards. */
  readonly show: () => Promise<Shot>;
  readonly done?: () => Promise<void>;
}

/**
 * The real session the composition, inspect and compact screens open, first found: a Claude Code 2.1 session of
 * ../shared/corpus (the one issue #23 names by UUID), else a Claude Code 1.0 one of test/fixtures/real. Both ~2 MB
 * with a Latin-script title (headless Chromium here has no CJK font).
 */
const FEATURED = ['1fb5e404-604d-4a2b-baf1-3beb42a67371', '536b4eec-7d70-4e39-a8a6-6882ed120752'];
let pending: Thenable<unknown> | undefined;

/*
 * Screens to add once the other parts of issue #23 are merged (the lead's list; each is one entry below):
 * - compact-diff: Accept / Discard as title actions of the diff editor (see the steps at that entry).
 * - compact-report: the report Accept opens by itself, with where the file went and "Resume in terminal".
 * - resume-terminal: the integrated terminal that "Resume in terminal" opens (window.terminals, then a shot).
 * - pick-session: the quick pick of sessions (title, agent, project, context; "Browse…") — already taken here as
 *   soon as a palette command shows it, since the screen just runs Inspect without a file.
 * - sessions-filter: the view's filter box and sort by context / recency / cost.
 * - eval-confirm: with a provider set, Evaluate's confirmation (model calls, estimated cost) before it spends;
 *   needs a key in SecretStorage and a loopback provider, and Escape in `done`.
 * - summary-state: "Cleanup only — no summary provider [Configure…]" and "Summary skipped: no API key [Set API key]".
 */
export const SCREENS: readonly Screen[] = [
  {
    // The Sessions view at VS Code's default side bar width (not widened): agents, their projects, one selected.
    name: 'sessions',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      await revealTree(view, FEATURED);
      return { texts: ['Claude Code', 'Codex'], crop: SIDE_BAR };
    },
  },
  {
    // The hover of the selected session row (its tooltip: context, tokens, actions).
    name: 'sessions-hover',
    show: async () => {
      const view = await sessionsView();
      const label = treeLabel(view, firstSession(view, FEATURED));
      return { hover: label.slice(0, 30), texts: [label.slice(0, 30)] };
    },
  },
  {
    // The status bar item (the open workspace's session, else the machine's newest), cut out of the page.
    name: 'status-bar',
    show: async () => {
      const api = await extensionApi();
      await waitFor(() => String(api.status?.item?.text ?? '') !== '', 10_000);
      return { selector: '[id="workbench.parts.statusbar"]' };
    },
  },
  {
    // The status bar item's tooltip, pointer resting on it.
    name: 'status-bar-hover',
    show: async () => {
      const text = String((await extensionApi()).status?.item?.text ?? '').replace(/\$\([^)]*\)\s*/g, '').trim();
      return { hover: text, texts: [text] };
    },
  },
  {
    // Whatever a palette command offers to pick a session with (today: a file dialog; issue #23: a quick pick).
    name: 'pick-session',
    show: async () => {
      await closeEditors();
      pending = vscode.commands.executeCommand(CommandIds.inspectTranscript);
      await settle(2500);
      return {};
    },
    done: async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await whenSettled(pending, 5000);
    },
  },
  {
    // The composition panel (webview chart) of a real session.
    name: 'composition',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      await vscode.commands.executeCommand(CommandIds.showComposition, vscode.Uri.file(firstSession(view, FEATURED).file));
      return { texts: ['Tokens by kind', 'Largest items'], crop: EDITOR };
    },
  },
  {
    // The composition panel's Simulator tab (rolling compaction replayed over the session).
    name: 'simulator',
    show: async () => ({ click: 'vscode-tab-header[data-tab="simulator"]', texts: ['Tokens by kind'], pause: 2000, crop: EDITOR }),
  },
  {
    // The composition panel's Cleanup tab (the rules and what each saves on this session).
    name: 'cleanup',
    show: async () => ({ click: 'vscode-tab-header[data-tab="cleanup"]', texts: ['Tokens by kind'], pause: 2000, crop: EDITOR }),
  },
  {
    // The lower part of the Sessions view: the other agents' sessions (OpenCode, Goose, Aider, Copilot Chat, Cline).
    name: 'sessions-more',
    show: async () => {
      const view = await sessionsView();
      const agents = view.provider.getChildren() ?? [];
      for (const agent of agents.slice(-4)) {
        for (const child of view.provider.getChildren(agent) ?? []) await view.treeView.reveal(child, { expand: true, select: false });
      }
      const last = allNodes(view).filter((n) => n.kind === 'session').at(-1);
      if (last) await view.treeView.reveal(last, { select: true, focus: true });
      return { texts: ['Cline'], crop: SIDE_BAR };
    },
  },
  {
    // The inspect report in the Markdown preview.
    name: 'inspect',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      await vscode.commands.executeCommand(CommandIds.inspectTranscript, vscode.Uri.file(firstSession(view, FEATURED).file));
      await waitFor(() => openTabs().some((t) => t.input instanceof vscode.TabInputWebview), 20_000);
      // The Markdown source beside it is not the screen; the rendered preview is.
      await vscode.window.tabGroups.close(openTabs().filter((t) => t.input instanceof vscode.TabInputText));
      return { texts: ['Tokens by kind'] };
    },
  },
  {
    // The compact diff preview as the user meets it, waiting for the decision.
    // Steps (today): run the command with no decision → the diff opens and a toast asks Accept / Discard → shot →
    // clearing the notifications answers Discard. TODO(lead, after the "flow" change): Accept / Discard are title
    // actions of the diff editor — shoot the diff with its title bar, then run the Discard action's command in `done`.
    name: 'compact-diff',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      pending = vscode.commands.executeCommand(CommandIds.compactTranscript, vscode.Uri.file(firstSession(view, FEATURED).file));
      await waitFor(() => openTabs().some((t) => t.input instanceof vscode.TabInputTextDiff), 120_000);
      // Both sides drawn (their headers), and today's decision toast.
      return { texts: ['live context as the agent sends it', 'after compaction', 'Compaction: history'], pause: 1000, crop: EDITOR };
    },
    done: async () => {
      await vscode.commands.executeCommand('notifications.clearAll');
      await whenSettled(pending, 10_000);
    },
  },
  {
    // The result after Accept, through the command's programmatic form. Today the report is built but not opened,
    // so it is opened here from the preview documents; once Accept opens it itself this screen shows that.
    name: 'compact-report',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      const out = (await vscode.commands.executeCommand(CommandIds.compactTranscript, vscode.Uri.file(firstSession(view, FEATURED).file), { decision: 'accept' })) as any;
      if (!out?.report) throw new Error('Accept returned no outcome');
      await settle(2000);
      const shown = openTabs().some((t) => /report/i.test(t.label) || t.input instanceof vscode.TabInputWebview);
      if (!shown) {
        const report = vscode.Uri.from({ scheme: 'context-compactor-preview', path: `/${out.report.sessionId}/report.md` });
        await vscode.commands.executeCommand('markdown.showPreview', report);
      }
      console.log(`compact-report: wrote ${out.output}${out.storeCopy ? ` and ${out.storeCopy}` : ''}; resume: ${out.report.resumeCommand ?? '(none)'}`);
      return { texts: ['Compaction report'], pause: 1000, crop: EDITOR };
    },
  },
  {
    // Evaluate compaction on the Claude Code node, rules only (no provider, no model call): the report's preview.
    name: 'eval-report',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      const claude = view.tree.agents.find((a: any) => a.agent === 'claude-code');
      const out = (await vscode.commands.executeCommand(CommandIds.evaluateCompaction, claude, { strategies: ['cleanup'], jobs: 1 })) as any;
      if (!out?.markdown) throw new Error('Evaluate compaction returned no outcome');
      return { texts: ['Compaction evaluation'], crop: EDITOR };
    },
  },
  {
    // Further down the same report: the worst files of each strategy (how they are named, whether they open).
    name: 'eval-worst',
    show: async () => ({ scrollTo: 'Worst files per strategy', texts: ['Worst files per strategy'], pause: 500, crop: EDITOR }),
  },
];
