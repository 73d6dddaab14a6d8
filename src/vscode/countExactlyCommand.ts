// "Count exactly": the configured provider's own token counter for a compaction's before and after.
import * as vscode from 'vscode';
import { prepareCompaction } from '../node/compactFile';
import { cleanupOptionsFrom, summaryConfigFrom } from '../node/compactOptions';
import { countExactly, type ExactCounts } from '../node/exactCount';
import { createSummarizer } from '../node/providers/createSummarizer';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { pickSession } from './pickTranscript.js';
import type { ApiKeyStore } from './secrets.js';
import type { Settings } from './settingKeys.js';
import { mayRun, type TrustGate } from './trust.js';
import { showInfo, showWarning, showError } from './notify.js';

interface Deps { readonly settings: () => Settings; readonly keys: ApiKeyStore; readonly log: Logger; readonly trust: TrustGate }

const pct = (e: number): string => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)} %`;

export function describeExact(x: ExactCounts): string {
  if (!x.supported) return `Exact count not available from ${x.provider}: ${x.reason}. The figures shown are offline estimates.`;
  return `Exact (${x.provider}): before ${x.before.exact.toLocaleString()} tokens (estimate ${pct(x.before.error)}), after ${x.after.exact.toLocaleString()} (estimate ${pct(x.after.error)}).`;
}

async function run(arg: unknown, deps: Deps): Promise<ExactCounts | undefined> {
  if (!mayRun(deps.trust, CommandIds.countExactly, 'Counting tokens with the provider')) return undefined;
  // The provider first: no session is asked for a count that cannot run.
  const settings = deps.settings();
  const provider = settings['summary.provider'];
  if (provider === 'none') {
    void showWarning('Context Compactor: set contextCompactor.summary.provider to count tokens with a provider.');
    return undefined;
  }
  const picked = await pickSession(arg, 'Count tokens exactly');
  if (!picked) return undefined;
  const source = picked.uri;
  try {
    const config = summaryConfigFrom(settings, await deps.keys.get(provider));
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Counting ${picked.title} with ${provider}`, cancellable: true }, async (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const prepared = await prepareCompaction(source.fsPath, cleanupOptionsFrom(settings));
      const summarizer = createSummarizer({ provider: config.provider, model: config.model, baseUrl: config.baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutSeconds * 1000 });
      if (!summarizer) return undefined;
      return countExactly(summarizer, prepared.original.messages, prepared.outcome.result.messages, abort.signal);
    });
    if (result) void showInfo(`Context Compactor: ${describeExact(result)}`);
    return result;
  } catch (err) {
    deps.log.error(`count ${source.fsPath}: ${describeError(err)}`);
    void showError(`Context Compactor: cannot count exactly: ${describeError(err)}`);
    return undefined;
  }
}

export function registerCountExactlyCommand(deps: Deps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.countExactly, (arg?: unknown) => run(arg, deps));
}
