// "Compact transcript": cleanup (progress, cancel) → focus → summary → diff with Accept / Discard in its title bar → write.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderReadable } from '../core/compact/renderReadable';
import { agentModule } from '../core/formats/registry';
import { AGENT_IDS } from '../core/model/ids';
import { prepareCompaction, reportOf, withSummary, type PreparedCompaction } from '../node/compactFile';
import { cleanupOptionsFrom, summaryConfigFrom } from '../node/compactOptions';
import type { SummaryConfig } from '../node/summarizeStep';
import { CommandIds } from './commandIds.js';
import { accept } from './compact/accept.js';
import { CompactFailed, CONFIGURE, previewLine, SET_KEY, summaryStatus, type CompactArgs, type CompactOutcome, type SummaryPlan } from './compact/outcome.js';
import { closeDiff, diffOpen, PendingDecisions, type Decision } from './compact/pending.js';
import { notificationText } from '../core/text/notification.js';
import { describeError, type Logger } from './log.js';
import { showError, showInfo } from './notify.js';
import { pickSession } from './pickTranscript.js';
import { previewScheme, type PreviewDocuments } from './previewDocuments';
import type { ApiKeyStore } from './secrets.js';
import type { Settings } from './settingKeys.js';
import { mayRunFully, type TrustGate } from './trust.js';

export type { CompactArgs, CompactOutcome } from './compact/outcome.js';

interface CompactDeps {
  readonly settings: () => Settings;
  readonly keys: ApiKeyStore;
  readonly log: Logger;
  readonly previews: PreviewDocuments;
  readonly trust: TrustGate;
  /** The extension's own storage: handoffs are written under it, never into the user's repository. */
  readonly storage: vscode.Uri;
}

/** Thrown when the user stops: the command then resolves to undefined, without an error. */
class Cancelled extends Error {}

/** Runs `work` under a cancellable notification; Cancelled when the user cancels. */
function withCancel<T>(title: string, work: (report: (message: string) => void, signal: AbortSignal) => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    // SDK calls take an AbortSignal; the notification gives a CancellationToken.
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    try {
      const result = await work((message) => progress.report({ message }), abort.signal);
      if (token.isCancellationRequested) throw new Cancelled();
      return result;
    } catch (err) {
      throw token.isCancellationRequested ? new Cancelled() : err;
    }
  }));
}

/** Whether the summary can run, checked before the focus is asked and before any call. */
async function planSummary(settings: Settings, deps: CompactDeps): Promise<{ plan: SummaryPlan; config?: SummaryConfig }> {
  const provider = settings['summary.provider'];
  if (provider === 'none') return { plan: 'no-provider' };
  if (!deps.trust.trusted()) return { plan: 'restricted' };
  const key = await deps.keys.get(provider);
  // An OpenAI-compatible server (a local one) may take no key.
  if (!key && provider !== 'openai-compatible') return { plan: 'no-key' };
  return { plan: 'ran', config: summaryConfigFrom(settings, key) };
}

async function compact(arg: unknown, args: CompactArgs | undefined, deps: CompactDeps, pending: PendingDecisions): Promise<CompactOutcome | undefined> {
  const picked = await pickSession(arg, 'Compact transcript');
  if (picked === undefined) return undefined;
  const source = picked.uri;
  const name = picked.title;
  try {
    return await run(source, picked.title, args, deps, pending);
  } catch (err) {
    if (err instanceof Cancelled) {
      void showInfo('Context Compactor: compaction cancelled; nothing was written.');
      return undefined;
    }
    deps.log.error(`compact ${source.fsPath}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const message = `Context Compactor: cannot compact ${name}: ${describeError(err)}`;
    void showError(message);
    // A caller with arguments (a test, the composition panel) sees the failure; a menu or palette run has the toast.
    if (args !== undefined) throw new CompactFailed(message.replace(/[\r\n]+/g, ' '));
    return undefined;
  }
}

/** A session title short enough for the quick pick's title bar (~600 px) beside "Continue … in…". */
function shortTitle(title: string): string {
  return title.length <= 48 ? title : `${title.slice(0, 47)}…`;
}

/**
 * "Continue in…": the same compaction, written for another agent the user picks (`args.to` skips the question). Its
 * own agent picked is a plain compaction.
 */
async function continueIn(arg: unknown, args: CompactArgs | undefined, deps: CompactDeps, pending: PendingDecisions): Promise<CompactOutcome | undefined> {
  const picked = await pickSession(arg, 'Continue in another agent');
  if (picked === undefined) return undefined;
  let to = args?.to;
  if (to === undefined) {
    const items = AGENT_IDS.filter((id) => agentModule(id).fromConversation).map((id) => ({ label: agentModule(id).label, description: agentModule(id).shortName, id }));
    const choice = await vscode.window.showQuickPick(items, { title: `Continue “${shortTitle(picked.title)}” in…`, placeHolder: 'Agent to continue in: latest request, state snapshot, recent turns' });
    if (!choice) return undefined;
    to = choice.id;
  }
  return compact(picked.uri, { ...args, to }, deps, pending);
}

/** `known`: the Sessions view's title for the file (its name when the view does not list it). */
async function run(source: vscode.Uri, known: string, args: CompactArgs | undefined, deps: CompactDeps, pending: PendingDecisions): Promise<CompactOutcome | undefined> {
  const settings = deps.settings();
  // The cleanup first: a file that is no transcript fails here, before any question.
  let p = await withCancel(`Compacting ${known}`, async (report) => {
    report('cleanup…');
    // Continued in another agent, in the session's recorded folder (Accept stores it for the folder VS Code resumes in).
    const convert = args?.to ? { to: args.to, env: process.env } : undefined;
    return prepareCompaction(source.fsPath, args?.cleanup ?? cleanupOptionsFrom(settings), {}, convert);
  });
  // The view's title (the agent's own name for the session, where it keeps one), else the transcript's first request.
  const title = known !== path.basename(source.fsPath) ? known : p.original.title?.trim() || known;
  const { plan, config } = await planSummary(settings, deps);
  if (config) {
    // Like Claude Code's `/compact <focus>`: steer the one summary call; Escape cancels, empty means no focus.
    const focus = args?.focus ?? (args?.decision ? '' : await vscode.window.showInputBox({
      title: `Compact ${title}`, prompt: 'Focus for the summary (optional): what the snapshot should keep in detail', placeHolder: 'e.g. the failing auth tests and the decision to keep the old schema',
    }));
    if (focus === undefined) throw new Cancelled();
    const summary = { ...config, focus: focus.trim() || undefined };
    const prepared = p;
    p = await withCancel(`Compacting ${title}`, (report, signal) => {
      report(`summary (${summary.provider}${summary.model ? ` ${summary.model}` : ''})…`);
      return withSummary(prepared, summary, signal);
    });
  }
  for (const w of p.warnings) deps.log.warn(w);
  // Nothing is written yet: the preview offers no command to resume a session that does not exist.
  const preview = { ...reportOf(p, undefined), resumeCommand: '' };
  const status = summaryStatus(plan, preview, settings['summary.provider']);
  const writable = mayRunFully(deps.trust, CommandIds.compactTranscript, 'Writing the compacted transcript');
  const choose = writable && !args?.decision;
  const right = await showDiff(p, title, deps.previews, choose ? pending : undefined);
  if (!writable) return { report: preview, written: false, decision: 'preview' };
  for (;;) {
    const decision: Decision = args?.decision === 'accept-and-store' ? 'accept' : args?.decision ?? (await ask(p, preview, status, right.decided ?? pending.wait(right.uri), right.uri, pending));
    right.decided = undefined;
    if (decision === 'discard') {
      await closeDiff(right.uri);
      return { report: preview, written: false, decision: 'discard' };
    }
    const outcome = await accept({ p, source, title, status: status.text, log: deps.log, previews: deps.previews, trust: deps.trust, storage: deps.storage, showReport: !args?.decision }, decision === 'save-to-folder', args?.folder);
    if (outcome) {
      await closeDiff(right.uri);
      return outcome;
    }
    // The folder dialog was cancelled: the diff and its decision stay (a caller that decided gets the preview); a diff
    // closed meanwhile has nobody left to decide on it, which is a Discard.
    if (args?.decision) return { report: preview, written: false, decision: 'preview' };
    if (!diffOpen(right.uri)) return { report: preview, written: false, decision: 'discard' };
  }
}

/** Opens the diff; with `pending`, the decision on it is awaited from before it opens. */
async function showDiff(p: PreparedCompaction, title: string, previews: PreviewDocuments, pending: PendingDecisions | undefined): Promise<{ uri: vscode.Uri; decided?: Promise<Decision> }> {
  const id = p.outcome.sessionId;
  const left = previews.put(`${id}/${id}.original.md`, renderReadable(p.original, `${title} — live context as the agent sends it`));
  const uri = previews.put(`${id}/${id}.compacted.md`, renderReadable(p.outcome.result, `${title} — after compaction`));
  const decided = pending?.wait(uri);
  const opened = Promise.resolve(vscode.commands.executeCommand('vscode.diff', left, uri, `${title}: original ↔ compacted`, { preview: false }));
  await Promise.race([opened, ...(decided ? [decided] : [])]);
  return { uri, decided };
}

/**
 * The decision is taken on the diff (its title bar). Meanwhile a progress notification says so and goes away once
 * decided (a toast would stay, saying "Accept" after the fact); its Cancel is a Discard. Why there is no summary,
 * with the action that fixes it, is a toast of its own.
 */
function ask(p: PreparedCompaction, preview: CompactOutcome['report'], status: ReturnType<typeof summaryStatus>, decided: Promise<Decision>, right: vscode.Uri, pending: PendingDecisions): Promise<Decision> {
  const where = p.outcome.written.kind === 'handoff' ? 'writes a Markdown handoff' : `writes it into ${agentModule(p.outcome.target.to).label}'s sessions`;
  // A summary state with an action has its own toast (below): said once, not twice.
  const message = notificationText(`${previewLine(preview)}${status.action ? '' : ` ${status.text}.`} ✓ Accept in the diff's title bar ${where}; Discard, Cancel or closing the diff writes nothing.`);
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Compaction preview', cancellable: true }, (progress, token) => {
    progress.report({ message });
    token.onCancellationRequested(() => pending.decide(right, 'discard'));
    return decided;
  });
  if (status.action) {
    void showInfo(`Context Compactor: ${status.text}.`, status.action).then(async (choice) => {
      if (choice === CONFIGURE) await vscode.commands.executeCommand('workbench.action.openSettings', 'contextCompactor.summary.provider');
      if (choice === SET_KEY) await vscode.commands.executeCommand(CommandIds.setApiKey);
    });
  }
  return decided;
}

export function registerCompactCommand(deps: CompactDeps): vscode.Disposable {
  const pending = new PendingDecisions(previewScheme);
  const decide = (d: Decision) => (arg?: unknown): boolean => pending.decide(arg, d);
  return vscode.Disposable.from(
    pending,
    vscode.commands.registerCommand(CommandIds.compactTranscript, (arg?: unknown, args?: CompactArgs) => compact(arg, args, deps, pending)),
    vscode.commands.registerCommand(CommandIds.continueIn, (arg?: unknown, args?: CompactArgs) => continueIn(arg, args, deps, pending)),
    vscode.commands.registerCommand(CommandIds.compactAccept, decide('accept')),
    vscode.commands.registerCommand(CommandIds.compactSaveToFolder, decide('save-to-folder')),
    vscode.commands.registerCommand(CommandIds.compactDiscard, decide('discard')),
  );
}
