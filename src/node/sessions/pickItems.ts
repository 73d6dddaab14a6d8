// The quick pick's rows for a session (pure): title, then agent · project, then the figure and age; urgent first.
import { agentModule } from '../../core/formats/registry';
import { visibleFormat } from '../../core/text/terminal';
import type { SessionNode } from './treeModel';
import { baseName } from './rowText';

/**
 * A quick pick renders `$(name)` as an icon: transcript text must not pick icons (a zero-width space of ours breaks
 * it, after the text's own invisible characters are made visible).
 */
const plain = (t: string): string => visibleFormat(t).replace(/\$\(/g, '$\u200b(');

/** "Compact soon" sessions first (largest first), then the rest newest first; subagents are not offered. */
export function pickOrder(sessions: readonly SessionNode[]): SessionNode[] {
  const recent = (a: SessionNode, b: SessionNode): number => (b.session.lastTimestamp ?? '').localeCompare(a.session.lastTimestamp ?? '') || a.file.localeCompare(b.file);
  return sessions.filter((s) => !s.subagent).sort((a, b) => Number(b.compactSoon) - Number(a.compactSoon)
    || (a.compactSoon && b.compactSoon ? (b.context ?? 0) - (a.context ?? 0) : 0) || recent(a, b));
}

/** label = the whole title; detail = "compact soon", the row's figure and age, agent and project (a long title hides a description). */
export function sessionPickText(node: SessionNode): { label: string; detail: string } {
  const s = node.session;
  return {
    label: plain(node.title),
    detail: [node.compactSoon ? '$(warning) compact soon' : '', plain(node.description), agentModule(s.agent).label, s.project ? plain(baseName(s.project)) : ''].filter(Boolean).join(' · '),
  };
}
