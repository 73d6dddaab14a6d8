// The status-bar figure: the most recently active session's context, as a share of its model's window, flagged at
// the "compact soon" threshold (pure: the vscode side only shows it).
import { agentModule } from '../../core/formats/registry';
import { sessionContextWindow } from '../../core/usage/contextWindow';
import type { SessionUsage } from '../../core/usage/types';

export interface StatusModel {
  readonly text: string;
  readonly tooltip: string;
  readonly compactSoon: boolean;
  /** The session's transcript, for the click (show its composition). */
  readonly file: string;
}

const k = (n: number): string => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

/** The newest session by last activity; undefined when there is none with a context (recorded, or estimated: `~`). */
export function statusOf(sessions: readonly SessionUsage[], threshold: number): StatusModel | undefined {
  const latest = sessions.filter((s) => s.contextTokens !== undefined).reduce<SessionUsage | undefined>(
    (a, s) => (!a || (s.lastTimestamp ?? '') > (a.lastTimestamp ?? '') ? s : a), undefined);
  if (!latest) return undefined;
  const used = latest.contextTokens!;
  const model = latest.models.at(-1);
  const window = sessionContextWindow(latest.agent, model, { peak: used });
  const compactSoon = used >= threshold;
  const est = latest.estimated ? '~' : '';
  const share = `${est}${window ? `${Math.round((used / window) * 100)} %` : k(used)}`;
  const agent = agentModule(latest.agent).label;
  return {
    text: `$(${compactSoon ? 'warning' : 'pulse'}) ${share}${window ? ` · ${k(used)}/${k(window)}` : ''}`,
    tooltip: [
      `${agent}: ${latest.title ?? latest.sessionId}`,
      `Context: ${used.toLocaleString('en-US')} tokens${window ? ` of ${window.toLocaleString('en-US')} (${model})` : ' (window unknown)'}${est ? ', estimated from the transcript (the agent records no usage)' : ''}`,
      compactSoon ? `At or above ${threshold.toLocaleString('en-US')} tokens: compact soon.` : `Compact soon from ${threshold.toLocaleString('en-US')} tokens.`,
      'Click: show the context composition.',
    ].join('\n'),
    compactSoon,
    file: latest.file,
  };
}
