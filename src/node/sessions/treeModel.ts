// Pure model of the Sessions view: usage report → agent → project → session nodes, and in-place reconciliation.
import type { AgentKind, SessionUsage } from '../../core/usage/types';
import { AGENT_IDS, agentModule } from '../../core/formats/registry';
import { resumeCommandFor } from '../agentStores';
import { sessionTooltip } from './tooltip';

/** Codicon id plus an optional theme color id; the vscode layer turns it into a ThemeIcon. */
export interface IconSpec {
  readonly id: string;
  readonly color?: string;
}

interface NodeBase {
  /** Stable across rescans: VS Code keys expansion state and selection on it. */
  readonly id: string;
  label: string;
  description: string;
  icon: IconSpec;
}

export interface AgentNode extends NodeBase {
  readonly kind: 'agent';
  readonly agent: AgentKind;
  children: ProjectNode[];
}

export interface ProjectNode extends NodeBase {
  readonly kind: 'project';
  readonly parent: AgentNode;
  /** The cwd recorded in the transcripts; undefined when none was. */
  readonly project?: string;
  children: SessionNode[];
}

export interface SessionNode extends NodeBase {
  readonly kind: 'session';
  readonly parent: ProjectNode;
  readonly file: string;
  session: SessionUsage;
  compactSoon: boolean;
  /** Undefined when the transcript's session id is not a UUID: such an id never reaches a shell or the clipboard. */
  resumeCommand: string | undefined;
  /** Markdown whose transcript-derived parts are escaped. */
  tooltip: string;
}

export type TreeNode = AgentNode | ProjectNode | SessionNode;

export interface TreeOptions {
  /** contextCompactor.contextThreshold: sessions at or above it are flagged. */
  readonly threshold: number;
  /** Shown as ~ in project paths. */
  readonly homeDir?: string;
}

export interface SessionTree {
  readonly agents: AgentNode[];
  compactSoonCount: number;
  sessionCount: number;
}

export const WARNING_COLOR = 'list.warningForeground';

/** 950 → "950", 28867 → "28.9k", 1_250_000 → "1.25M": short enough for a tree description. */
export function shortTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local "YYYY-MM-DD HH:mm"; empty for a missing or unparsable timestamp. */
export function shortDate(iso: string | undefined): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function tildify(path: string, homeDir: string | undefined): string {
  if (!homeDir || homeDir === '/') return path;
  return path === homeDir || path.startsWith(`${homeDir}/`) ? `~${path.slice(homeDir.length)}` : path;
}

const baseName = (p: string): string => p.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '') || p;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Newest first; sessions without a timestamp sink to the bottom. */
const newestFirst = (a: SessionUsage, b: SessionUsage): number => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? '') || a.file.localeCompare(b.file);

function sessionFields(s: SessionUsage, agent: AgentKind, opts: TreeOptions): Omit<SessionNode, 'kind' | 'id' | 'parent' | 'file'> {
  const compactSoon = s.contextTokens !== undefined && s.contextTokens >= opts.threshold;
  const cmd = resumeCommandFor(agent, s.sessionId);
  const parts = [shortDate(s.lastTimestamp), s.contextTokens === undefined ? '' : `${shortTokens(s.contextTokens)} context`, compactSoon ? 'compact soon' : ''];
  return {
    // Titles are one line already (title.ts); a session without a typed prompt falls back to its id.
    label: s.title ?? `Session ${s.sessionId.slice(0, 8)}`,
    description: parts.filter(Boolean).join(' · '),
    icon: compactSoon ? { id: 'warning', color: WARNING_COLOR } : { id: agentModule(agent).icon },
    session: s,
    compactSoon,
    resumeCommand: cmd,
    tooltip: sessionTooltip(s, { threshold: opts.threshold, compactSoon, resumeCommand: cmd, handoff: agentModule(agent).handoff }),
  };
}

function countSoon(sessions: readonly SessionNode[]): number {
  return sessions.filter((s) => s.compactSoon).length;
}

function groupDescription(sessions: readonly SessionNode[]): string {
  const soon = countSoon(sessions);
  return `${plural(sessions.length, 'session')}${soon > 0 ? ` · ${soon} to compact` : ''}`;
}

/** Groups sessions by agent (fixed order) and project (most recent activity first). */
export function buildSessionTree(sessions: readonly SessionUsage[], opts: TreeOptions): SessionTree {
  const agents: AgentNode[] = [];
  for (const agent of AGENT_IDS) {
    const mine = sessions.filter((s) => s.agent === agent).sort(newestFirst);
    if (mine.length === 0) continue;
    const node: AgentNode = { kind: 'agent', id: agent, agent, label: agentModule(agent).label, description: '', icon: { id: agentModule(agent).icon }, children: [] };
    const byProject = new Map<string, ProjectNode>();
    for (const s of mine) {
      const key = s.project ?? '';
      let project = byProject.get(key);
      if (!project) {
        project = {
          kind: 'project', id: `${agent}\u0000${key}`, parent: node, project: s.project,
          label: s.project ? baseName(s.project) : '(unknown project)',
          description: '', icon: { id: 'folder' }, children: [],
        };
        byProject.set(key, project);
        node.children.push(project);
      }
      project.children.push({ kind: 'session', id: `${agent}\u0000${s.file}`, parent: project, file: s.file, ...sessionFields(s, agent, opts) });
    }
    for (const p of node.children) p.description = `${p.project ? tildify(p.project, opts.homeDir) : ''}${p.project ? ' · ' : ''}${groupDescription(p.children)}`;
    node.description = groupDescription(node.children.flatMap((p) => p.children));
    agents.push(node);
  }
  const all = agents.flatMap((a) => a.children.flatMap((p) => p.children));
  return { agents, compactSoonCount: countSoon(all), sessionCount: all.length };
}

export function sessionsOf(tree: SessionTree): SessionNode[] {
  return tree.agents.flatMap((a) => a.children.flatMap((p) => p.children));
}

const shape = (tree: SessionTree): string => JSON.stringify(tree.agents.map((a) => [a.id, a.children.map((p) => [p.id, p.children.map((s) => s.id)])]));

const visible = (n: TreeNode): string => JSON.stringify([n.label, n.description, n.icon, n.kind === 'session' ? n.tooltip : '']);

/**
 * Brings `current` up to date with `next`. Same agents, projects and sessions in the same order: the nodes
 * of `current` are updated in place (VS Code refreshes an element by object identity) and the ones whose
 * rendering changed are returned. Anything else returns 'all': the caller swaps in `next` and refreshes the root.
 */
export function reconcile(current: SessionTree, next: SessionTree): TreeNode[] | 'all' {
  if (shape(current) !== shape(next)) return 'all';
  const changed: TreeNode[] = [];
  const update = <T extends TreeNode>(into: T, fields: Partial<T>): void => {
    const before = visible(into);
    Object.assign(into, fields);
    if (visible(into) !== before) changed.push(into);
  };
  current.agents.forEach((a, i) => {
    const na = next.agents[i];
    a.children.forEach((p, j) => {
      const np = na.children[j];
      p.children.forEach((s, k) => {
        const ns = np.children[k];
        update(s, { label: ns.label, description: ns.description, icon: ns.icon, session: ns.session, compactSoon: ns.compactSoon, resumeCommand: ns.resumeCommand, tooltip: ns.tooltip });
      });
      update(p, { description: np.description, label: np.label });
    });
    update(a, { description: na.description });
  });
  current.compactSoonCount = next.compactSoonCount;
  current.sessionCount = next.sessionCount;
  return changed;
}

/** The transcript a tree element stands for: what menus on a session item pass to commands. */
export function sessionFileOf(arg: unknown): string | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const n = arg as Partial<SessionNode>;
  return n.kind === 'session' && typeof n.file === 'string' ? n.file : undefined;
}
