// Recorded usage of a task's requests: the UI log's api_req_started entries (tokensIn, tokensOut, cacheWrites,
// cacheReads, cost), matched to the assistant message each request produced; else the message's own metrics.
import type { Message, Usage } from '../../model/transcript';
import { plausibleTokens } from '../../read/usageNumbers';
import { absurdUsageWarning } from '../../read/warnings';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Request { readonly usage: Usage; readonly cost?: number; readonly historyIndex?: number; readonly model?: string }

/** What requestUsage could not count: entries whose text is not JSON, and usage records with an impossible figure. */
interface Dropped { unreadable: number; absurd: number }

/** A finished request of the UI log (a cancelled or still streaming one has no cost and no tokens). */
function requestOf(m: unknown, dropped: Dropped): Request | undefined {
  if (!isObj(m) || m.type !== 'say' || m.say !== 'api_req_started' || typeof m.text !== 'string') return undefined;
  let info: unknown;
  try { info = JSON.parse(m.text); } catch { dropped.unreadable++; return undefined; }
  if (!isObj(info) || (info.tokensIn === undefined && info.tokensOut === undefined && info.cost === undefined)) return undefined;
  const n = [info.tokensIn, info.tokensOut, info.cacheReads, info.cacheWrites].map(plausibleTokens);
  if (n.some((x) => x === undefined)) { dropped.absurd++; return undefined; }
  const modelInfo = isObj(m.modelInfo) ? m.modelInfo : undefined;
  return {
    usage: { inputTokens: n[0]!, outputTokens: n[1]!, cacheReadTokens: n[2]!, cacheCreationTokens: n[3]! },
    cost: typeof info.cost === 'number' && Number.isFinite(info.cost) ? info.cost : undefined,
    historyIndex: Number.isInteger(m.conversationHistoryIndex) ? (m.conversationHistoryIndex as number) : undefined,
    model: typeof modelInfo?.modelId === 'string' ? modelInfo.modelId : undefined,
  };
}

/** The usage an assistant message recorded itself (Cline ≥ 3.3x `metrics.tokens`: cache reads and writes together). */
function metricsOf(m: unknown, dropped: Dropped): Usage | undefined {
  const t = isObj(m) && isObj(m.metrics) && isObj(m.metrics.tokens) ? m.metrics.tokens : undefined;
  if (!t) return undefined;
  const n = [t.prompt, t.completion, t.cached].map(plausibleTokens);
  if (n.some((x) => x === undefined)) { dropped.absurd++; return undefined; }
  return { inputTokens: n[0]!, outputTokens: n[1]!, cacheReadTokens: n[2]!, cacheCreationTokens: 0 };
}

/**
 * Sets `usage` (and the model, when the message has none) on the assistant messages. A request names the API
 * history's last index when it started (Cline): its answer is the assistant message two further on. Without that
 * index (Roo, Kilo, old Cline) requests answer the assistant messages in order. Returns how many usage records were
 * not counted for an impossible token count (warned about, see absurdUsageWarning).
 */
export function requestUsage(messages: Message[], api: readonly unknown[], ui: readonly unknown[], warnings: string[]): number {
  const dropped: Dropped = { unreadable: 0, absurd: 0 };
  const requests = ui.flatMap((m) => requestOf(m, dropped) ?? []);
  const bad = dropped.unreadable;
  if (bad) warnings.push(`${bad} api_req_started entr${bad === 1 ? 'y has' : 'ies have'} unreadable usage; not counted`);
  const byRecord = new Map<number, Message>();
  messages.forEach((m, i) => { if (m.role === 'assistant') byRecord.set(m.records[0]!, messages[i]!); });
  const indexed = requests.length > 0 && requests.every((r) => r.historyIndex !== undefined);
  const assistants = api.flatMap((m, i) => (isObj(m) && m.role === 'assistant' ? [i] : []));
  const answer = new Map<number, Request>();
  if (indexed) {
    for (const r of requests) {
      const at = r.historyIndex! + 2;
      if (isObj(api[at]) && (api[at] as Obj).role === 'assistant') answer.set(at, r);
    }
  } else requests.forEach((r, k) => { if (assistants[k] !== undefined) answer.set(assistants[k]!, r); });
  for (const [record, m] of byRecord) {
    const r = answer.get(record);
    const usage = r?.usage ?? metricsOf(api[record], dropped);
    if (!usage) continue;
    const i = messages.indexOf(m);
    messages[i] = { ...m, usage, model: m.model ?? r?.model };
  }
  if (dropped.absurd) warnings.push(absurdUsageWarning(dropped.absurd));
  return dropped.absurd;
}
