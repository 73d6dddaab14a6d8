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
  nodes.forEach((n, i) => { if (n.uuid) byUuid.set(n.uuid, i); });
  const leaf = pickLeaf(nodes);
  if (leaf === undefined) return { nodes: [], cycles: [] };
  const onChain = new Set<number>();
  const cycles: number[] = [];
  let brokenAt: number | undefined;
  for (let i: number | undefined = leaf; i !== undefined;) {
    onChain.add(i);
    const parent: string | null | undefined = nodes[i]!.parentUuid;
    if (!parent) break;
    let next = byUuid.get(parent);
    if (next === undefined) brokenAt = nodes[i]!.line;
    else if (onChain.has(next)) {
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
  for (const i of onChain) {
    const n = nodes[i]!;
    if (n.type === 'assistant' && n.msgId) msgIds.add(n.msgId);
  }
  nodes.forEach((n, i) => {
    if (!onChain.has(i) && n.sidechain === side && n.type === 'assistant' && n.msgId && msgIds.has(n.msgId)) onChain.add(i);
  });
  const callIds = new Set<string>();
  for (const i of onChain) for (const id of nodes[i]!.callIds) callIds.add(id);
  nodes.forEach((n, i) => {
    if (!onChain.has(i) && n.sidechain === side && n.type === 'user' && n.resultIds.length > 0 && n.resultIds.every((id) => callIds.has(id))) onChain.add(i);
  });
  return { nodes: [...onChain].sort((a, b) => a - b), brokenAt, cycles };
}

function previousOffChain(nodes: readonly ClaudeNode[], from: number, onChain: ReadonlySet<number>): number | undefined {
  for (let j = from - 1; j >= 0; j--) {
    const n = nodes[j]!;
    if (!onChain.has(j) && !n.sidechain && n.uuid && (n.type === 'user' || n.type === 'assistant')) return j;
  }
  return undefined;
}

/** The newest main-chain user/assistant record (Claude Code resumes from the latest timestamp). */
function pickLeaf(nodes: readonly ClaudeNode[]): number | undefined {
  let best: number | undefined;
  let bestTs = '';
  const consider = (sidechainOk: boolean): void => {
    nodes.forEach((n, i) => {
      if ((n.type !== 'user' && n.type !== 'assistant') || (n.sidechain && !sidechainOk)) return;
      if (best === undefined || n.timestamp >= bestTs) { best = i; bestTs = n.timestamp; }
    });
  };
  consider(false);
  if (best === undefined) consider(true); // a subagent file: every record is a sidechain
  return best;
}
