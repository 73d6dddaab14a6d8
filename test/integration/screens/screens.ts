// The screens `npm run screens` photographs, in order: one entry per screen; add a screen here (or in a module of
// screens listed here, as continueIn.ts) and nowhere else.
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { checkScreen, type ScreenView } from '../harness.js';
import { continueInScreens } from './continueIn.js';
import { allNodes, closeEditors, diffTabs, extensionApi, firstSession, openTabs, revealTree, sessionsView, settle, treeLabel, waitFor, whenSettled } from './workbench.js';

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
 * test/fixtures/real/corpus (the one issue #23 names by UUID), else a Claude Code 1.0 one of test/fixtures/real. Both ~2 MB
 * with a Latin-script title (headless Chromium here has no CJK font).
 */
// `npm run screens -- --featured <part of a file name>` opens another real session there (e.g. a Codex rollout).
const FEATURED = process.env['SCREENS_FEATURED'] ? [process.env['SCREENS_FEATURED']] : ['1fb5e404-604d-4a2b-baf1-3beb42a67371', '536b4eec-7d70-4e39-a8a6-6882ed120752'];
/** What the sessions-filter screen types into the filter box (a project of three agents' sessions). */
const FILTER = 'IDAHO';
let pending: Thenable<unknown> | undefined;

/** What the search screens type into the search box: matches in several agents' sessions of the home. */
const SEARCH = 'error';

/** The outcome of the compaction the compact-diff screen accepts (the report and resume screens show its results). */
let accepted: { output?: string; report?: { resumeCommand?: string; sessionId?: string } } | undefined;

/** What `pending` resolved to, or undefined when it did not within `ms`. */
async function whenSettledValue(p: Thenable<unknown> | undefined, ms: number): Promise<unknown> {
  return Promise.race([Promise.resolve(p), settle(ms).then(() => undefined)]);
}

/** Runs Compact on the featured session as a user does (no decision), and waits for its diff. */
async function compactWaiting(): Promise<void> {
  await closeEditors();
  const view = await sessionsView();
  pending = vscode.commands.executeCommand(CommandIds.compactTranscript, vscode.Uri.file(firstSession(view, FEATURED).file));
  await waitFor(() => diffTabs().length > 0, 120_000);
  if (diffTabs().length === 0) throw new Error('no compaction diff opened within 120 s');
}

/*
 * Not a screen: Evaluate's confirmation (model calls, estimated cost) is a modal dialog, and VS Code's test host
 * refuses modal dialogs (DialogService.prompt throws "refused to show dialog in tests"), so it cannot be shown here.
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
    // What a palette command offers to pick a session with: the quick pick of known sessions by title, with Browse….
    name: 'pick-session',
    show: async () => {
      await closeEditors();
      pending = vscode.commands.executeCommand(CommandIds.inspectTranscript);
      // The pointer moves onto the pick's title: the status bar's tooltip of the screen before goes.
      return { texts: ['compact soon'], hover: 'Inspect transcript', pause: 1000 };
    },
    done: async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await whenSettled(pending, 5000);
    },
  },
  {
    // The view filtered (its message says how many sessions match) and sorted by context (the view's description).
    name: 'sessions-filter',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      await vscode.commands.executeCommand(CommandIds.sortSessions, 'context');
      view.setFilter(FILTER);
      for (const agent of view.provider.getChildren() ?? []) {
        await view.treeView.reveal(agent, { expand: true, select: false });
        for (const project of view.provider.getChildren(agent) ?? []) await view.treeView.reveal(project, { expand: true, select: false });
      }
      return { texts: ['Filter:', 'by context'], pause: 500, crop: SIDE_BAR };
    },
    done: async () => {
      await vscode.commands.executeCommand(CommandIds.clearSessionsFilter);
      await vscode.commands.executeCommand(CommandIds.sortSessions, 'recency');
    },
  },
  {
    // "Search sessions…" (the Sessions view's search icon, or the palette): the live quick pick of matches, every
    // agent's sessions at once, each match's kind and message over its snippet, the session below.
    name: 'search',
    show: async () => {
      await closeEditors();
      const api = await extensionApi();
      pending = vscode.commands.executeCommand(CommandIds.searchSessions, SEARCH);
      await waitFor(() => (api.search.current?.items ?? []).some((i: any) => i.pick) && !api.search.current?.busy, 120_000);
      return { texts: ['Search sessions', 'matches in'], pause: 500, crop: '.quick-input-widget' };
    },
  },
  {
    // A match picked: the composition panel opens at its message, the match on top, the message's blocks below with
    // the matched one highlighted.
    name: 'search-match',
    show: async () => {
      const api = await extensionApi();
      const qp = api.search.current;
      const item = qp?.items.find((i: any) => i.pick?.target.kind === 'tool result') ?? qp?.items.find((i: any) => i.pick);
      if (!qp || !item) throw new Error('the search screen left no match to pick');
      qp.activeItems = [item];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const opened = (await whenSettledValue(pending, 20_000)) as { file: string; target: { message: number } } | undefined;
      if (!opened) throw new Error('the pick opened nothing');
      await waitFor(() => api.composition.focusShownIn(opened.file) === opened.target.message, 60_000);
      return { texts: ['Search match', `message ${opened.target.message + 1} of`], crop: EDITOR };
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
    // The compact diff as the user meets it: the decision on its title bar (✓ Accept, Save to folder, Discard), the
    // progress notification saying so, and the summary state ("Cleanup only — no summary provider [Configure…]").
    name: 'compact-diff',
    show: async () => {
      await compactWaiting();
      return { texts: ['original ↔ compacted', 'live context as the agent sends it', 'after compaction', 'Compaction preview', 'Cleanup only'], pause: 1000, crop: EDITOR };
    },
    done: async () => {
      // What the ✓ of the diff's title bar runs: the diff's right side as its argument.
      const right = diffTabs().map((t) => (t.input as vscode.TabInputTextDiff).modified)[0];
      if (right && (await vscode.commands.executeCommand(CommandIds.compactAccept, right)) !== true) throw new Error('the diff had no pending decision');
      accepted = (await Promise.race([pending, settle(120_000)])) as typeof accepted;
      console.log(`compact-diff: Accept wrote ${accepted?.output ?? '(nothing)'}; resume: ${accepted?.report?.resumeCommand || '(none)'}`);
    },
  },
  {
    // The report Accept opens by itself: where the file went, what was kept and cut, what next; and its toast.
    name: 'compact-report',
    show: async () => {
      if (!accepted?.output) throw new Error('the compact-diff screen accepted nothing (run it first)');
      await waitFor(() => openTabs().some((t) => t.input instanceof vscode.TabInputWebview), 20_000);
      return { texts: ['Kept and cut', 'Written to', 'compacted session written to', ...(accepted.report?.resumeCommand ? [accepted.report.resumeCommand] : [])], pause: 1500, crop: EDITOR };
    },
  },
  {
    // "Resume in terminal" from the toast after Accept: an integrated terminal in the session's folder running the
    // report's resume command.
    name: 'resume-terminal',
    show: async () => {
      const before = vscode.window.terminals.length;
      const clicked = await checkScreen([], undefined, 60_000, [], { click: '.notification-toast a.monaco-button:has-text("Resume in terminal")' });
      if (clicked === undefined || clicked.length > 0) throw new Error(`cannot click the toast's Resume in terminal: ${clicked?.join(', ') ?? 'no runner'}`);
      await waitFor(() => vscode.window.terminals.length > before, 20_000);
      if (vscode.window.terminals.length === before) throw new Error('no terminal opened');
      return { pause: 4000 };
    },
    done: async () => {
      for (const t of vscode.window.terminals) t.dispose();
      await vscode.commands.executeCommand('workbench.action.closePanel');
    },
  },
  {
    // With a provider set but no API key: "Summary skipped: no API key for anthropic [Set API key]" beside the diff.
    name: 'summary-state',
    show: async () => {
      await vscode.workspace.getConfiguration('contextCompactor').update('summary.provider', 'anthropic', vscode.ConfigurationTarget.Global);
      await compactWaiting();
      return { texts: ['Summary skipped: no API key', 'Set API key'], pause: 1000 };
    },
    done: async () => {
      try {
        await vscode.commands.executeCommand(CommandIds.compactDiscard, diffTabs().map((t) => (t.input as vscode.TabInputTextDiff).modified)[0]);
        await whenSettled(pending, 10_000);
      } finally {
        await vscode.workspace.getConfiguration('contextCompactor').update('summary.provider', undefined, vscode.ConfigurationTarget.Global);
      }
    },
  },
  ...continueInScreens(FEATURED),
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
    // Further down the same report: each strategy's sessions, worst first (named by title, linked to the file).
    name: 'eval-worst',
    show: async () => ({ scrollTo: 'worst first', texts: ['worst first'], pause: 500, crop: EDITOR }),
  },
  {
    // Evaluate with the vendor strategy on the Claude Code node: its sessions Claude Code compacted itself, cut where it
    // did, what its own compaction kept beside ours on the same segments (history cut, probes, output size).
    name: 'eval-vendor',
    show: async () => {
      await closeEditors();
      const view = await sessionsView();
      const claude = view.tree.agents.find((a: any) => a.agent === 'claude-code');
      const out = (await vscode.commands.executeCommand(CommandIds.evaluateCompaction, claude, { strategies: ['vendor', 'cleanup'], jobs: 1 })) as any;
      if (!out?.markdown) throw new Error('Evaluate compaction returned no outcome');
      return { scrollTo: "On the agent's own compaction segments", texts: ["On the agent's own compaction segments", 'vendor (the agent', 'ours, cleanup'], pause: 500, crop: EDITOR };
    },
  },
  {
    // Guard Claude Code's compaction: the hook goes into Claude Code's user settings (the throwaway home's), and says where.
    name: 'hook-install',
    show: async () => {
      await closeEditors();
      const file = await vscode.commands.executeCommand(CommandIds.guardInstall);
      if (typeof file !== 'string') throw new Error('the hook was not installed');
      return { texts: ['compaction is guarded', 'Open settings.json'], pause: 1000 };
    },
    done: async () => { await vscode.commands.executeCommand(CommandIds.guardUninstall); },
  },
];
