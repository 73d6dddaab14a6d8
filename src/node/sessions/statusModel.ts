// The status-bar figure: the open workspace's most recently active session's context (the machine's newest only when
// the workspace has none), as a share of its model's window, flagged at the threshold (pure: vscode only shows it).
import { agentModule } from '../../core/formats/registry';
import { visibleFormat } from '../../core/text/terminal';
import type { SessionUsage } from '../../core/usage/types';
import { windowOf } from './rowText';
import { compactThreshold } from '../../core/usage/contextWindow';

export interface StatusModel {
  readonly text: string;
  readonly tooltip: string;
  readonly compactSoon: boolean;
  /** The session's transcript, for the click (show its composition). */
  readonly file: string;
}

const k = (n: number): string => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

/**
 * Separators as '/', no trailing one; a Windows path (drive letter) compared without case: VS Code's fsPath writes
 * `c:\…` where the scan reports `C:\…` (projectOf), and Windows folders match whatever their case.
 */
const norm = (p: string): string => {
  const n = p.replace(/\\/g, '/').replace(/\/+$/, '');
  return /^[A-Za-z]:\//.test(n) ? n.toLowerCase() : n;
};

/** The session ran in (or its transcript lies in) one of the folders: its project is that folder or inside it. */
export function inFolders(s: SessionUsage, folders: readonly string[]): boolean {
  const within = (p: string | undefined): boolean => p !== undefined && folders.some((f) => {
    const dir = norm(f), at = norm(p);
    return at === dir || at.startsWith(`${dir}/`);
  });
  return within(s.project) || within(s.file);
}

const newest = (sessions: readonly SessionUsage[]): SessionUsage | undefined => sessions.reduce<SessionUsage | undefined>(
  (a, s) => (!a || (s.lastTimestamp ?? '') > (a.lastTimestamp ?? '') ? s : a), undefined);

/**
 * The newest session by last activity among the workspace folders' sessions, else among all; undefined when there
 * is none with a context (recorded, or estimated: `~`). Subagent transcripts and unresumed compacted copies have no
 * context of their own and drop out.
 */
export function statusOf(sessions: readonly SessionUsage[], threshold: number, workspaceFolders: readonly string[] = []): StatusModel | undefined {
  // A context of 0 is no figure: a copy Context Compactor wrote records zero usage and carries its original's
  // timestamps, so it would tie with the original it was made from and could read "0 %" (the tree estimates it).
  const withContext = sessions.filter((s) => s.contextTokens !== undefined && s.contextTokens > 0);
  const local = newest(withContext.filter((s) => inFolders(s, workspaceFolders)));
  const latest = local ?? newest(withContext);
  if (!latest) return undefined;
  const used = latest.contextTokens!;
  const window = windowOf(latest);
  const flagAt = compactThreshold(threshold, window);
  const compactSoon = used >= flagAt;
  const est = latest.estimated ? '~' : '';
  const share = `${est}${window ? `${Math.round((used / window) * 100)} %` : k(used)}`;
  const agent = agentModule(latest.agent);
  const where = local ? '' : workspaceFolders.length > 0 ? ' (no session of this workspace; the newest on this machine)' : ' (the newest on this machine)';
  return {
    text: `$(${compactSoon ? 'warning' : 'pulse'}) ${agent.shortName} ${share}${window ? ` · ${k(used)}/${k(window)}` : ''}`,
    tooltip: [
      `${agent.label}: ${latest.title ?? latest.sessionId}${where}`,
      `Context: ${used.toLocaleString('en-US')} tokens${window ? ` of ${window.toLocaleString('en-US')} (${latest.models.at(-1)})` : ' (window unknown)'}${est ? ', estimated from the transcript (the agent records no usage)' : ''}`,
      compactSoon ? `At or above ${flagAt.toLocaleString('en-US')} tokens: compact soon.` : `Compact soon from ${flagAt.toLocaleString('en-US')} tokens.`,
      'Click: show the context composition.',
    ].map(visibleFormat).join('\n'),
    compactSoon,
    file: latest.file,
  };
}
