// Picks Claude Code's live branch: the parentUuid walk from the newest leaf, plus the parallel
// tool-call siblings and tool results that Claude Code itself re-attaches on load.
import type { ClaudeNode } from './node';

export interface LiveBranch {
  /** Node indexes (into the nodes array) in file order. */
  readonly nodes: number[];
  readonly brokenAt?: number;
  /** Lines whose parentUuid closed a cycle; the walk went on with the record before them in the file. */
  readonly cycles: number[];
}

export function selectLiveBranch(nodes: readonly ClaudeNode[]): LiveBranch {
  const byUuid = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) { const u = nodes[i]!.uuid; if (u) byUuid.set(u, i); }
  const leaf = pickLeaf(nodes);
  if (leaf === undefined) return { nodes: [], cycles: [] };
  // One flag per node instead of a Set: read in file order at the end, so the result needs no sort.
  const onChain = new Uint8Array(nodes.length);
  const cycles: number[] = [];
  let brokenAt: number | undefined;
  for (let i: number | undefined = leaf; i !== undefined;) {
    onChain[i] = 1;
    const parent: string | null | undefined = nodes[i]!.parentUuid;
    if (!parent) break;
    let next = byUuid.get(parent);
    if (next === undefined) brokenAt = nodes[i]!.line;
    else if (onChain[next]) {
      // A cycle (a hand-edited or corrupted file): Claude Code would loop or stop here and lose the history
      // before it. Repair: go on with the nearest earlier main-chain record not yet on the chain.
      cycles.push(nodes[i]!.line);
      next = previousOffChain(nodes, i, onChain);
    }
    i = next;
  }
  // Claude Code streams one record per content block; parallel tool_use siblings and their results
  // can hang off side branches. Re-attach them by message id and tool_use id, as its loader does.
  // A subagent file holds only sidechain records: there the siblings are sidechain records too.
  const side = nodes[leaf]!.sidechain;
  const msgIds = new Set<string>();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (onChain[i] && n.type === 'assistant' && n.msgId) msgIds.add(n.msgId);
  }
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (!onChain[i] && n.sidechain === side && n.type === 'assistant' && n.msgId && msgIds.has(n.msgId)) onChain[i] = 1;
  }
  const callIds = new Set<string>();
  for (let i = 0; i < nodes.length; i++) if (onChain[i]) for (const id of nodes[i]!.callIds) callIds.add(id);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (!onChain[i] && n.sidechain === side && n.type === 'user' && n.resultIds.length > 0 && n.resultIds.every((id) => callIds.has(id))) onChain[i] = 1;
  }
  const live: number[] = [];
  for (let i = 0; i < nodes.length; i++) if (onChain[i]) live.push(i);
  return { nodes: live, brokenAt, cycles };
}

function previousOffChain(nodes: readonly ClaudeNode[], from: number, onChain: Uint8Array): number | undefined {
  for (let j = from - 1; j >= 0; j--) {
    const n = nodes[j]!;
    if (!onChain[j] && !n.sidechain && n.uuid && (n.type === 'user' || n.type === 'assistant')) return j;
  }
  return undefined;
}

/** The newest main-chain user/assistant record (Claude Code resumes from the latest timestamp). */
function pickLeaf(nodes: readonly ClaudeNode[]): number | undefined {
  return newest(nodes, false) ?? newest(nodes, true); // a subagent file: every record is a sidechain
}

/** The newest user/assistant record, sidechains only when `sidechainOk` (a module function: see read/shapeKeeper.ts). */
function newest(nodes: readonly ClaudeNode[], sidechainOk: boolean): number | undefined {
  let best: number | undefined;
  let bestTs = '';
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if ((n.type !== 'user' && n.type !== 'assistant') || (n.sidechain && !sidechainOk)) continue;
    if (best === undefined || n.timestamp >= bestTs) { best = i; bestTs = n.timestamp; }
  }
  return best;
}
