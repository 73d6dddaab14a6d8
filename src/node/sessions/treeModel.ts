// Pure model of the Sessions view: usage report → agent → project → session (→ subagent) nodes, sorted, filtered, reconciled.
import { visibleFormat, withoutControls } from '../../core/text/terminal';
import type { AgentKind, SessionUsage } from '../../core/usage/types';
import { AGENT_IDS, agentModule } from '../../core/formats/registry';
import { resumeCommandFor } from '../agentStores';
import { compactThreshold } from '../../core/usage/contextWindow';
import { baseName, contextFigure, costText, rowTitle, shortAge, shortDate, shortTokens, totalsOf, totalsText, windowOf } from './rowText';
import { nestSubagents } from './subagents';
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
  /** The project path with ~ for the home folder, for the hover. */
  where: string;
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
  /** The whole title (the label may be cut to fit the row). */
  title: string;
  /** Context shown and sorted on: recorded, or estimated from the text of a compacted copy. */
  context: number | undefined;
  /** A copy Context Compactor wrote: its context is an estimate, it has no usage of its own yet. */
  compacted: boolean;
  /** A subagent's transcript, shown under the session that started it. */
  subagent: boolean;
  /** Subagent transcripts of this session (Claude Code `agent-*.jsonl`). */
  children: SessionNode[];
  /** A subagent's session row (its parent in the tree). */
  owner?: SessionNode;
}

export type TreeNode = AgentNode | ProjectNode | SessionNode;

export type SortKey = 'context' | 'recency' | 'cost';
export const SORT_KEYS: readonly SortKey[] = ['context', 'recency', 'cost'];

export interface TreeOptions {
  /** contextCompactor.contextThreshold: sessions at or above it are flagged. */
  readonly threshold: number;
  /** Shown as ~ in project paths. */
  readonly homeDir?: string;
  /** Order of sessions in a project and of projects in an agent (default: recency). */
  readonly sort?: SortKey;
  /** Only sessions whose title, project, agent, file or id contain this (case-insensitive); empty: all. */
  readonly filter?: string;
  /** Copies Context Compactor wrote (compacted.ts), by file. */
  readonly compacted?: ReadonlyMap<string, { readonly contextTokens: number | undefined }>;
  /** For the relative age in descriptions (ms since the epoch); default Date.now(). */
  readonly now?: number;
}

export interface SessionTree {
  readonly agents: AgentNode[];
  compactSoonCount: number;
  /** Sessions shown (subagents not counted). */
  sessionCount: number;
  /** Sessions before the filter. */
  totalCount: number;
}

export const WARNING_COLOR = 'list.warningForeground';
/** Characters of title a session row keeps so that its figure still shows at the view's default 300 px. */
export const ROW_TITLE_MAX = 18;

export { shortDate, shortTokens };

export function tildify(path: string, homeDir: string | undefined): string {
  if (!homeDir || homeDir === '/') return path;
  return path === homeDir || path.startsWith(`${homeDir}/`) ? `~${path.slice(homeDir.length)}` : path;
}


function sessionNode(s: SessionUsage, parent: ProjectNode, opts: TreeOptions, now: number, subagent: boolean): SessionNode {
  const agent = s.agent;
  const copy = opts.compacted?.get(s.file);
  const compacted = copy !== undefined;
  const context = compacted ? copy.contextTokens : s.contextTokens;
  const flagAt = compactThreshold(opts.threshold, windowOf(s));
  const compactSoon = !compacted && !subagent && s.contextTokens !== undefined && s.contextTokens >= flagAt;
  const cmd = resumeCommandFor(agent, s.sessionId);
  // A subagent's records carry its parent's session id; its file name (`agent-<hex>`) is what tells them apart.
  // Made one line and visible here (bidi controls, invisible format characters: core/text/terminal), for every place
  // the row's text goes: the tree, its hover, the quick pick.
  const title = withoutControls(s.title ?? (subagent ? `Subagent ${/agent-([^\\/]*?)\.jsonl$/.exec(s.file)?.[1] ?? s.sessionId.slice(0, 8)}` : `Session ${s.sessionId.slice(0, 8)}`));
  // A copy's share of the window is in its hover: the row says what it is, the estimate first.
  const figure = subagent && context === undefined ? `subagent · ${costText(s.cost ?? 0, s.cost === undefined)}` : contextFigure(context, compacted ? undefined : windowOf(s), compacted);
  const description = [figure, compacted ? 'compacted' : '', shortAge(s.lastTimestamp, now)].filter(Boolean).join(' · ');
  return {
    kind: 'session', id: `${agent}\u0000${s.file}`, parent, file: s.file,
    // Titles are one line already (title.ts); the row keeps the start, the hover and quick pick the whole.
    label: rowTitle(title, ROW_TITLE_MAX),
    title,
    description,
    icon: compactSoon ? { id: 'warning', color: WARNING_COLOR } : compacted ? { id: 'fold-down' } : subagent ? { id: 'hubot' } : { id: agentModule(agent).icon },
    session: s,
    compactSoon,
    context,
    compacted,
    subagent,
    children: [],
    resumeCommand: cmd,
    tooltip: visibleFormat(sessionTooltip(s, { threshold: flagAt, compactSoon, resumeCommand: cmd, handoff: agentModule(agent).handoff, compacted, estimatedContext: compacted ? context : undefined, subagent })),
  };
}

const recency = (s: SessionNode): string => s.session.lastTimestamp ?? '';
const keyOf: Record<SortKey, (s: SessionNode) => number | string> = {
  context: (s) => s.context ?? -1,
  recency,
  cost: (s) => (s.session.cost ?? 0) + s.children.reduce((a, c) => a + (c.session.cost ?? 0), 0),
};

/** Largest (or newest) first; ties newest first, then by file so the order is stable. */
function bySort(sort: SortKey): (a: SessionNode, b: SessionNode) => number {
  const key = keyOf[sort];
  return (a, b) => {
    const ka = key(a), kb = key(b);
    const primary = typeof ka === 'number' && typeof kb === 'number' ? kb - ka : String(kb).localeCompare(String(ka));
    return primary || recency(b).localeCompare(recency(a)) || a.file.localeCompare(b.file);
  };
}

function matches(n: SessionNode, needle: string): boolean {
  if (!needle) return true;
  const hay = (x: SessionNode): string => [x.title, x.session.project ?? '', agentModule(x.session.agent).label, x.file, x.session.sessionId].join('\n').toLowerCase();
  return hay(n).includes(needle) || n.children.some((c) => hay(c).includes(needle));
}

/** Groups sessions by agent (fixed order) and project; subagents under their session; sorted and filtered. */
export function buildSessionTree(sessions: readonly SessionUsage[], opts: TreeOptions): SessionTree {
  const now = opts.now ?? Date.now();
  const sort = bySort(opts.sort ?? 'recency');
  const needle = (opts.filter ?? '').trim().toLowerCase();
  const { top, subagentsOf } = nestSubagents(sessions);
  const agents: AgentNode[] = [];
  let total = 0;
  for (const agent of AGENT_IDS) {
    const mine = top.filter((s) => s.agent === agent);
    if (mine.length === 0) continue;
    total += mine.length;
    const node: AgentNode = { kind: 'agent', id: agent, agent, label: agentModule(agent).label, description: '', icon: { id: agentModule(agent).icon }, children: [] };
    const byProject = new Map<string, ProjectNode>();
    for (const s of mine) {
      const key = s.project ?? '';
      let project = byProject.get(key);
      if (!project) {
        project = {
          kind: 'project', id: `${agent}\u0000${key}`, parent: node, project: s.project, where: s.project ? visibleFormat(tildify(s.project, opts.homeDir)) : '(no folder recorded)',
          label: s.project ? withoutControls(baseName(s.project)) : '(unknown project)',
          description: '', icon: { id: 'folder' }, children: [],
        };
        byProject.set(key, project);
      }
      const row = sessionNode(s, project, opts, now, false);
      row.children = (subagentsOf.get(s.file) ?? []).map((c) => ({ ...sessionNode(c, project!, opts, now, true), owner: row })).sort(bySort('recency'));
      if (matches(row, needle)) project.children.push(row);
    }
    for (const p of byProject.values()) p.children.sort(sort);
    node.children = [...byProject.values()].filter((p) => p.children.length > 0);
    // A project stands where its first session would: its largest (or newest) session decides.
    node.children.sort((a, b) => sort(a.children[0]!, b.children[0]!));
    for (const p of node.children) p.description = totalsText(totalsOf(p.children));
    node.description = totalsText(totalsOf(node.children.flatMap((p) => p.children)));
    if (node.children.length > 0) agents.push(node);
  }
  const all = agents.flatMap((a) => a.children.flatMap((p) => p.children));
  return { agents, compactSoonCount: all.filter((s) => s.compactSoon).length, sessionCount: all.length, totalCount: total };
}

/** Every session row, subagents after their session. */
export function sessionsOf(tree: SessionTree): SessionNode[] {
  return tree.agents.flatMap((a) => a.children.flatMap((p) => p.children.flatMap((s) => [s, ...s.children])));
}

const shape = (tree: SessionTree): string => JSON.stringify(tree.agents.map((a) => [a.id, a.children.map((p) => [p.id, p.children.map((s) => [s.id, s.children.map((c) => c.id)])])]));

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
  const updateSession = (s: SessionNode, ns: SessionNode): void => update(s, {
    label: ns.label, title: ns.title, description: ns.description, icon: ns.icon, session: ns.session, compactSoon: ns.compactSoon,
    context: ns.context, compacted: ns.compacted, resumeCommand: ns.resumeCommand, tooltip: ns.tooltip,
  });
  current.agents.forEach((a, i) => {
    const na = next.agents[i];
    a.children.forEach((p, j) => {
      const np = na.children[j];
      p.children.forEach((s, k) => {
        const ns = np.children[k];
        s.children.forEach((c, l) => updateSession(c, ns.children[l]));
        updateSession(s, ns);
      });
      update(p, { description: np.description, label: np.label });
    });
    update(a, { description: na.description });
  });
  current.compactSoonCount = next.compactSoonCount;
  current.sessionCount = next.sessionCount;
  current.totalCount = next.totalCount;
  return changed;
}

/** The transcript a tree element stands for: what menus on a session item pass to commands. */
export function sessionFileOf(arg: unknown): string | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const n = arg as Partial<SessionNode>;
  return n.kind === 'session' && typeof n.file === 'string' ? n.file : undefined;
}
