// "Evaluate compaction": the eval over a Sessions-view agent or folder node (palette: every session), asking before
// it calls a model, with progress and cancel; the Markdown report opens in the preview, to reveal or save elsewhere.
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalEstimate } from '../core/eval/estimate';
import type { EvalReport, StrategyId } from '../core/eval/types';
import { cleanupOptionsFrom, summaryConfigFrom } from '../node/compactOptions';
import { runEval } from '../node/eval/runEval';
import type { EvalConfig } from '../node/eval/strategies';
import { writeEvalMarkdown } from '../node/eval/writeReport';
import type { SessionNode, TreeNode } from '../node/sessions/treeModel';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import type { ApiKeyStore } from './secrets.js';
import type { Settings } from './settingKeys.js';
import type { SessionsView } from './sessionsTree.js';
import type { TrustGate } from './trust.js';
import { showInfo, showError } from './notify.js';
import { confirmEval } from './evalConfirm.js';

interface EvalDeps {
  readonly settings: () => Settings;
  readonly keys: ApiKeyStore;
  readonly log: Logger;
  readonly trust: TrustGate;
  readonly sessions: SessionsView;
  /** Where reports go: the extension's own storage, never the workspace. */
  readonly storage: vscode.Uri;
}

/**
 * Tests (and callers) may narrow the run and answer the cost question (`confirm`) themselves; the settings decide
 * everything else.
 */
export interface EvalArgs { readonly strategies?: readonly StrategyId[]; readonly jobs?: number; readonly confirm?: 'run' | 'rules-only' }
/** `estimate`: what was asked before calling the provider (absent when nothing could call a model). */
export interface EvalOutcome { readonly report: EvalReport; readonly markdown: string; readonly chart: string; readonly estimate?: EvalEstimate }

/** A group's sessions, without the copies this extension wrote (a copy is evaluated only when picked itself). */
const filesUnder = (n: TreeNode): string[] => (n.kind === 'session' ? (n.compacted ? [] : [n.file]) : n.children.flatMap(filesUnder));
const sessionsUnder = (n: TreeNode): SessionNode[] => (n.kind === 'session' ? [n] : n.children.flatMap(sessionsUnder));
const clock = (ms: number): string => `${Math.floor(ms / 60000)}:${String(Math.round(ms / 1000) % 60).padStart(2, '0')}`;

/** The node a menu passes, else (palette, view title) every session the view lists, scanning first. */
async function targetFiles(arg: unknown, view: SessionsView): Promise<{ files: string[]; label: string; titles: Map<string, string> }> {
  const node = arg as TreeNode | undefined;
  // The whole title (a row's label is cut to fit the side bar; the report cuts at its own width).
  const named = (nodes: TreeNode[]): Map<string, string> => new Map(nodes.flatMap(sessionsUnder).map((s) => [s.file, s.title]));
  if (node && typeof node === 'object' && 'kind' in node && (node.kind === 'session' || Array.isArray(node.children))) return { files: node.kind === 'session' ? [node.file] : filesUnder(node), label: node.label, titles: named([node]) };
  if (view.state === 'idle' || view.state === 'scanning') await view.refresh();
  return { files: view.tree.agents.flatMap(filesUnder), label: 'all sessions', titles: named(view.tree.agents) };
}

async function evaluate(arg: unknown, args: EvalArgs | undefined, deps: EvalDeps): Promise<EvalOutcome | undefined> {
  const { files, label, titles } = await targetFiles(arg, deps.sessions);
  if (files.length === 0) {
    void showInfo('Context Compactor: no sessions to evaluate (the Sessions view lists none).');
    return undefined;
  }
  const settings = deps.settings();
  // Restricted Mode: rules only; no key is read and no provider called.
  const provider = deps.trust.trusted() ? settings['summary.provider'] : 'none';
  const configured = provider === 'none' ? undefined : summaryConfigFrom(settings, await deps.keys.get(provider));
  const strategies = args?.strategies ?? ['cleanup', 'summary', 'cleanup+summary', 'rolling', 'server', 'vendor'];
  const cleanup = cleanupOptionsFrom(settings);
  try {
    const choice = await confirmEval({ files, label, strategies, summary: configured, threshold: settings.contextThreshold, keepRecentTurns: cleanup.keepRecentTurns ?? 6, confirm: args?.confirm });
    if (!choice) return undefined;
    const summary = choice.run === 'provider' ? configured : undefined;
    const config: EvalConfig = { strategies, cleanup, summary, threshold: settings.contextThreshold };
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
    const out = await writeEvalMarkdown(report, path.join(deps.storage.fsPath, 'eval', `eval-${stamp}.md`), files, { titles, createDir: true, inlineChart: true });
    deps.log.info(`evaluated ${report.files} of ${files.length} sessions in ${report.durationMs} ms${report.interrupted ? ' (cancelled)' : ''}${summary ? ` with ${summary.provider}` : ', rules only'} -> ${out.markdown}`);
    await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(out.markdown));
    void offerReport(report, out.markdown, files, titles, deps);
    return { report, ...out, ...(choice.estimate ? { estimate: choice.estimate } : {}) };
  } catch (err) {
    deps.log.error(`eval ${label}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    void showError(`Context Compactor: cannot evaluate ${label}: ${describeError(err)}`);
    return undefined;
  }
}

/** After the run: where the report is, and the two things people do with it next. */
async function offerReport(report: EvalReport, markdown: string, files: readonly string[], titles: Map<string, string>, deps: EvalDeps): Promise<void> {
  const reveal = 'Reveal in file manager';
  const saveAs = 'Save as…';
  const calls = report.rows.reduce((a, r) => a + r.modelCalls, 0);
  const priced = report.rows.filter((r) => r.costUsd !== undefined);
  const cost = calls === 0 ? '' : priced.length ? ` ($${priced.reduce((a, r) => a + r.costUsd!, 0).toFixed(2)})` : ' (cost unknown)';
  const pick = await showInfo(`Context Compactor: evaluated ${report.files} session(s), ${calls === 0 ? 'rules only, no model call' : `${calls} model call(s)${cost}`}; the report is in ${markdown}`, reveal, saveAs);
  try {
    if (pick === reveal) await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(markdown));
    if (pick !== saveAs) return;
    const home = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(path.dirname(markdown));
    const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(home, path.basename(markdown)), filters: { Markdown: ['md'] }, saveLabel: 'Save report' });
    if (!target) return;
    // Written anew for its place: links to the sessions are relative to it, and the chart goes beside it.
    const out = await writeEvalMarkdown(report, target.fsPath, files, { titles, inlineChart: true });
    deps.log.info(`eval report saved as ${out.markdown} (chart ${out.chart})`);
    void showInfo(`Context Compactor: report saved as ${out.markdown} (chart beside it).`);
  } catch (err) {
    deps.log.error(`eval report ${pick}: ${describeError(err)}`);
    void showError(`Context Compactor: cannot ${pick === saveAs ? 'save' : 'reveal'} the report: ${describeError(err)}`);
  }
}

export function registerEvalCommand(deps: EvalDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.evaluateCompaction, (arg?: unknown, args?: EvalArgs) => evaluate(arg, args, deps));
}
