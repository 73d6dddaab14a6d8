// "Compact transcript": progress with phases and cancel → diff preview → Accept / Discard → write → resume.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderReadable } from '../core/compact/renderReadable';
import type { CleanupOptions } from '../core/cleanup/types';
import { HANDOFF_NOTE, renderCompactMarkdown, type CompactReport } from '../core/compact/report';
import { agentModule } from '../core/formats/registry';
import { storePath } from '../node/agentStores';
import { compactTranscript, reportOf, writeCompaction, type PreparedCompaction } from '../node/compactFile';
import { cleanupOptionsFrom, summaryConfigFrom } from '../node/compactOptions';
import { checkOwnFolder } from '../node/write/outputTarget';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { pickTranscript } from './pickTranscript.js';
import type { PreviewDocuments } from './previewDocuments';
import type { ApiKeyStore } from './secrets.js';
import type { Settings } from './settingKeys.js';
import { mayRunFully, type TrustGate } from './trust.js';
import { showInfo, showError } from './notify.js';

interface CompactDeps {
  readonly settings: () => Settings;
  readonly keys: ApiKeyStore;
  readonly log: Logger;
  readonly previews: PreviewDocuments;
  readonly trust: TrustGate;
}

/** Lets tests (and other commands) decide without the notification, and the panel's Cleanup tab choose the options. */
export interface CompactArgs {
  readonly decision?: 'accept' | 'accept-and-store' | 'discard';
  /** Replaces the cleanup options of the settings (the summary settings still apply). */
  readonly cleanup?: CleanupOptions;
  /** What the summary should dwell on; when absent and a provider is configured, the user is asked (may be left empty). */
  readonly focus?: string;
}
export interface CompactOutcome { readonly report: CompactReport; readonly output?: string; readonly storeCopy?: string }


async function compact(arg: unknown, args: CompactArgs | undefined, deps: CompactDeps): Promise<CompactOutcome | undefined> {
  const source = await pickTranscript(arg, 'Compact transcript');
  if (source === undefined) return undefined;
  const name = path.basename(source.fsPath);
  const settings = deps.settings();
  // Restricted Mode: the cleanup preview only; no key is read and no provider called.
  const trusted = deps.trust.trusted();
  let summary = trusted
    ? summaryConfigFrom(settings, settings['summary.provider'] === 'none' ? undefined : await deps.keys.get(settings['summary.provider'] as never))
    : { ...summaryConfigFrom(settings, undefined), provider: 'none' as const };
  if (summary.provider !== 'none') {
    // Like Claude Code's `/compact <focus>`: steer the one summary call; Escape cancels, empty means no focus.
    const focus = args?.focus ?? (args?.decision ? '' : await vscode.window.showInputBox({
      title: `Compact ${name}`, prompt: 'Focus for the summary (optional): what the snapshot should keep in detail', placeHolder: 'e.g. the failing auth tests and the decision to keep the old schema',
    }));
    if (focus === undefined) return undefined;
    summary = { ...summary, focus: focus.trim() || undefined };
  }
  let prepared: PreparedCompaction | undefined;
  try {
    prepared = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Compacting ${name}`, cancellable: true },
      async (progress, token) => {
        // SDK calls take an AbortSignal; the notification gives a CancellationToken.
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const p = await compactTranscript(source.fsPath, {
          cleanup: args?.cleanup ?? cleanupOptionsFrom(settings), summary, signal: abort.signal,
          onPhase: (phase) => progress.report({ message: phase === 'summary' ? `summary (${summary.provider}${summary.model ? ` ${summary.model}` : ''})…` : `${phase}…` }),
        });
        progress.report({ message: 'preparing the preview…' });
        return token.isCancellationRequested ? undefined : p;
      },
    );
  } catch (err) {
    deps.log.error(`compact ${source.fsPath}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    void showError(`Context Compactor: cannot compact ${name}: ${describeError(err)}`);
    return undefined;
  }
  if (!prepared) {
    void showInfo('Context Compactor: compaction cancelled; nothing was written.');
    return undefined;
  }
  const preview = reportOf(prepared, undefined);
  for (const w of prepared.warnings) deps.log.warn(w);
  await showDiff(prepared, name, deps.previews);
  if (!mayRunFully(deps.trust, CommandIds.compactTranscript, 'Writing the compacted transcript')) return { report: preview };
  const decision = args?.decision ?? (await ask(prepared, preview));
  if (decision === 'discard') return { report: preview };
  return accept(prepared, source, decision === 'accept-and-store', deps);
}

async function showDiff(p: PreparedCompaction, name: string, previews: PreviewDocuments): Promise<void> {
  const left = previews.put(`${p.outcome.sessionId}/original.md`, renderReadable(p.original, `${name} — live context as the agent sends it`));
  const right = previews.put(`${p.outcome.sessionId}/compacted.md`, renderReadable(p.outcome.result, `${name} — after compaction`));
  await vscode.commands.executeCommand('vscode.diff', left, right, `${name}: original ↔ compacted`, { preview: true });
}

async function ask(p: PreparedCompaction, r: CompactReport): Promise<NonNullable<CompactArgs['decision']>> {
  const storeLabel = `Accept + add to ${agentModule(p.original.format).label} sessions`;
  const handoff = r.handoff ? ` The output is a ${HANDOFF_NOTE}.` : '';
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  const small = r.tooSmallToCompact ? ' Too small to compact (under 20,000 tokens of history).' : '';
  const msg = `Compaction: history ${r.before.historyTokens.toLocaleString()} → ${r.after.historyTokens.toLocaleString()} tokens (−${pct(r.historyReduction)}); whole request ${r.before.tokens.toLocaleString()} → ${r.after.tokens.toLocaleString()} (−${pct(r.reduction)}, harness ${r.harnessTokens.toLocaleString()}); identifier recall ${(r.identifierRecall * 100).toFixed(0)} %, ${r.modelCalls} model call(s)${r.fallback ? ', summary fell back to cleanup only' : ''}.${small}`;
  // A handoff is pasted, never loaded: the agent has no store to add it to.
  const choice = await showInfo(msg + handoff, 'Accept', ...(r.handoff ? [] : [storeLabel]), 'Discard');
  return choice === 'Accept' ? 'accept' : choice === storeLabel ? 'accept-and-store' : 'discard';
}

/**
 * Next to the original when it lives in the workspace, else under the workspace's compacted/ folder (`own`: that
 * folder, which must not be a symbolic link a cloned repository planted).
 */
function targetPath(p: PreparedCompaction, source: vscode.Uri): { output: string; own?: string } {
  const base = path.basename(p.defaultOut);
  const folder = vscode.workspace.getWorkspaceFolder(source) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder) return { output: p.defaultOut };
  if (vscode.workspace.getWorkspaceFolder(source)) return { output: path.join(path.dirname(source.fsPath), base) };
  const own = path.join(folder.uri.fsPath, 'compacted');
  return { output: path.join(own, base), own };
}

async function accept(p: PreparedCompaction, source: vscode.Uri, toStore: boolean, deps: CompactDeps): Promise<CompactOutcome | undefined> {
  try {
    const { output, own } = targetPath(p, source);
    let storeCopy: string | undefined;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Context Compactor: writing the compacted transcript' }, async () => {
      if (own) await checkOwnFolder(own);
      await writeCompaction(p, output, { createDir: true });
      if (toStore) {
        storeCopy = storePath(p.original.format, p.outcome.sessionId, p.original.cwd, p.ctx.now(), process.env, source.fsPath);
        await writeCompaction(p, storeCopy, { createDir: true });
      }
    });
    const report = reportOf(p, output);
    deps.previews.put(`${p.outcome.sessionId}/report.md`, renderCompactMarkdown(report));
    deps.log.info(`compacted ${source.fsPath} -> ${output}${storeCopy ? ` and ${storeCopy}` : ''}`);
    if (report.handoff) {
      void showInfo(`Context Compactor: wrote ${path.basename(output)} — ${HANDOFF_NOTE}.`, 'Open', 'Copy handoff').then(async (choice) => {
        if (choice === 'Open') await vscode.window.showTextDocument(vscode.Uri.file(output));
        if (choice === 'Copy handoff' && p.outcome.written.kind === 'handoff') await vscode.env.clipboard.writeText(p.outcome.written.markdown);
      });
      return { report, output, storeCopy };
    }
    const actions = report.resumeCommand ? ['Open', 'Copy resume command'] : ['Open'];
    void showInfo(`Context Compactor: wrote ${path.basename(output)}${storeCopy ? ` (also in ${agentModule(p.original.format).label}'s sessions)` : ''}.`, ...actions).then(async (choice) => {
      if (choice === 'Open') await vscode.window.showTextDocument(vscode.Uri.file(output));
      if (choice === 'Copy resume command') await vscode.env.clipboard.writeText(report.resumeCommand);
    });
    return { report, output, storeCopy };
  } catch (err) {
    deps.log.error(`write ${source.fsPath}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    void showError(`Context Compactor: cannot write the compacted transcript: ${describeError(err)}`);
    return undefined;
  }
}

export function registerCompactCommand(deps: CompactDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.compactTranscript, (arg?: unknown, args?: CompactArgs) => compact(arg, args, deps));
}
