// "Evaluate compaction": the eval over a Sessions-view agent or folder node (palette: every session), with
// progress and cancel; the Markdown report with its chart opens in the preview.
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalReport, StrategyId } from '../core/eval/types';
import { cleanupOptionsFrom, summaryConfigFrom } from '../node/compactOptions';
import { runEval } from '../node/eval/runEval';
import type { EvalConfig } from '../node/eval/strategies';
import { writeEvalMarkdown } from '../node/eval/writeReport';
import type { TreeNode } from '../node/sessions/treeModel';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import type { ApiKeyStore } from './secrets.js';
import type { Settings } from './settingKeys.js';
import type { SessionsView } from './sessionsTree.js';
import type { TrustGate } from './trust.js';
import { showInfo, showError } from './notify.js';

interface EvalDeps {
  readonly settings: () => Settings;
  readonly keys: ApiKeyStore;
  readonly log: Logger;
  readonly trust: TrustGate;
  readonly sessions: SessionsView;
  /** Where reports go: the extension's own storage, never the workspace. */
  readonly storage: vscode.Uri;
}

/** Tests (and callers) may narrow the run; the settings decide everything else. */
export interface EvalArgs { readonly strategies?: readonly StrategyId[]; readonly jobs?: number }
export interface EvalOutcome { readonly report: EvalReport; readonly markdown: string; readonly chart: string }

const filesUnder = (n: TreeNode): string[] => (n.kind === 'session' ? [n.file] : n.children.flatMap(filesUnder));
const clock = (ms: number): string => `${Math.floor(ms / 60000)}:${String(Math.round(ms / 1000) % 60).padStart(2, '0')}`;

/** The node a menu passes, else (palette, view title) every session the view lists, scanning first. */
async function targetFiles(arg: unknown, view: SessionsView): Promise<{ files: string[]; label: string }> {
  const node = arg as TreeNode | undefined;
  if (node && typeof node === 'object' && 'kind' in node && (node.kind === 'session' || Array.isArray(node.children))) return { files: filesUnder(node), label: node.label };
  if (view.state === 'idle' || view.state === 'scanning') await view.refresh();
  return { files: view.tree.agents.flatMap(filesUnder), label: 'all sessions' };
}

async function evaluate(arg: unknown, args: EvalArgs | undefined, deps: EvalDeps): Promise<EvalOutcome | undefined> {
  const { files, label } = await targetFiles(arg, deps.sessions);
  if (files.length === 0) {
    void showInfo('Context Compactor: no sessions to evaluate (the Sessions view lists none).');
    return undefined;
  }
  const settings = deps.settings();
  // Restricted Mode: rules only; no key is read and no provider called.
  const provider = deps.trust.trusted() ? settings['summary.provider'] : 'none';
  const summary = provider === 'none' ? undefined : summaryConfigFrom(settings, await deps.keys.get(provider));
  const config: EvalConfig = { strategies: args?.strategies ?? ['cleanup', 'summary', 'cleanup+summary', 'rolling', 'server'], cleanup: cleanupOptionsFrom(settings), summary, threshold: settings.contextThreshold };
  try {
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Evaluating compaction of ${label}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let last = 0;
        return runEval({
          files, config, jobs: args?.jobs ?? availableParallelism(), signal: abort.signal, onProgress: (p) => {
            progress.report({ message: `${p.done}/${p.total} sessions${p.etaMs !== undefined && p.done < p.total ? ` · ETA ${clock(p.etaMs)}` : ''}`, increment: ((p.done - last) / p.total) * 100 });
            last = p.done;
          },
        });
      },
    );
    if (report.files === 0) {
      void showInfo('Context Compactor: evaluation cancelled before any session finished.');
      return undefined;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const out = await writeEvalMarkdown(report, path.join(deps.storage.fsPath, 'eval', `eval-${stamp}.md`), files, true);
    deps.log.info(`evaluated ${report.files} of ${files.length} sessions in ${report.durationMs} ms${report.interrupted ? ' (cancelled)' : ''} -> ${out.markdown}`);
    await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(out.markdown));
    return { report, ...out };
  } catch (err) {
    deps.log.error(`eval ${label}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    void showError(`Context Compactor: cannot evaluate ${label}: ${describeError(err)}`);
    return undefined;
  }
}

export function registerEvalCommand(deps: EvalDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.evaluateCompaction, (arg?: unknown, args?: EvalArgs) => evaluate(arg, args, deps));
}
