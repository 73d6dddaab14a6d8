// Reads a Cline / Roo Code / Kilo Code task folder into the model: the API history as the model sees it (after the
// agent's own truncation or condensing), tool calls paired with their results, usage from the UI log.
import { jsonErrorText } from '../../read/jsonError';
import type { Block, Message, RawRecord, Session } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { contentBlocks } from '../claude-code/blocks';
import { clineVisible, deletedRangeOf, rooVisible } from './history';
import { variantOfPath, type ClineVariant } from './paths';
import { API_FILE, CONTEXT_FILE, HISTORY_ITEM_FILE, METADATA_FILE, OLD_UI_FILE, UI_FILE } from './select';
import { classifyUserBlocks, pairTextResults } from './blocks';
import { requestUsage } from './usage';
import { parseUiOnly } from './uiOnly';
import { clineSession, type ClineExtra } from './session';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(name: string, text: string): unknown {
  try { return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); }
  catch (e) { throw new Error(`${name} is ${jsonErrorText(e)}`); }
}

/** The variant from the folder's place, else from what the files hold (Roo's UI log names its API protocol). */
function variantOf(path: string, ui: readonly unknown[], api: readonly unknown[], item: Obj | undefined): ClineVariant {
  const byPath = variantOfPath(path);
  if (byPath) return byPath;
  const rooish = item !== undefined || api.some((m) => isObj(m) && ('condenseId' in m || 'isSummary' in m || 'truncationId' in m))
    || ui.some((m) => isObj(m) && m.say === 'api_req_started' && typeof m.text === 'string' && m.text.startsWith('{"apiProtocol"'));
  return rooish ? 'roo' : 'cline';
}

export function parseTask(files: readonly { path: string; text: string }[], options: ReadOptions): Session {
  const byName = new Map(files.map((f) => [f.path.slice(Math.max(f.path.lastIndexOf('/'), f.path.lastIndexOf('\\')) + 1), f]));
  const apiFile = byName.get(API_FILE);
  if (!apiFile) {
    const uiFile = byName.get(UI_FILE) ?? byName.get(OLD_UI_FILE);
    if (!uiFile) throw new Error(`${API_FILE} is missing`);
    return parseUiTask(uiFile, byName, options);
  }
  const api = parseJson(API_FILE, apiFile.text);
  if (!Array.isArray(api)) throw new Error(`${API_FILE} is not a JSON array of messages`);
  const warnings: string[] = [];
  const optional = (name: string): unknown => {
    const f = byName.get(name);
    if (!f) return undefined;
    try { return parseJson(name, f.text); } catch (e) { warnings.push(`${(e as Error).message}; it was not used`); return undefined; }
  };
  const uiRaw = optional(UI_FILE) ?? optional(OLD_UI_FILE);
  const ui = Array.isArray(uiRaw) ? uiRaw : [];
  if (uiRaw === undefined) warnings.push(`${UI_FILE} is missing: no recorded usage, figures are estimates`);
  const metaRaw = optional(METADATA_FILE);
  const itemRaw = optional(HISTORY_ITEM_FILE);
  const historyItem = isObj(itemRaw) ? itemRaw : undefined;
  const folder = apiFile.path.slice(0, Math.max(apiFile.path.lastIndexOf('/'), apiFile.path.lastIndexOf('\\')));
  const variant = variantOf(folder, ui, api, historyItem);
  const visible = variant === 'cline' ? clineVisible(api.length, deletedRangeOf(historyItem, ui), optional(CONTEXT_FILE)) : rooVisible(api);
  warnings.push(...visible.notes);
  if (visible.deletedRange) warnings.push(`Cline truncated this task's history: messages ${visible.deletedRange[0] + 1}–${visible.deletedRange[1] + 1} of ${api.length} are not sent to the model and are not counted`);

  const records: RawRecord[] = api.map((m) => ({
    raw: options.keepRaw ? JSON.stringify(m) : undefined,
    kind: isObj(m) ? (m.type === 'reasoning' ? 'reasoning' : String(m.role ?? 'unknown')) : 'invalid',
    inContext: false,
  }));
  const messages: Message[] = [];
  let skipped = 0;
  for (const r of visible.indexes) {
    const m = api[r];
    if (!isObj(m) || (m.role !== 'user' && m.role !== 'assistant')) { skipped++; continue; }
    records[r]!.inContext = true;
    let blocks: Block[];
    if (m.type === 'reasoning') {
      const enc = typeof m.encrypted_content === 'string' ? m.encrypted_content.length : 0;
      blocks = [{ type: 'reasoning', text: '', opaqueBytes: enc, ref: { record: r }, tokens: Math.ceil(enc / 4) }];
    } else {
      const content = withEdits(m.content, visible.edits.get(r), r === visible.stripResultsOf);
      blocks = contentBlocks(content, { record: r }, m.role, () => warnings.push(`message ${r + 1} is nested too deeply to read whole`));
      if (m.role === 'user') blocks = classifyUserBlocks(blocks, m.isSummary === true, m.isTruncationMarker === true);
      else if (m.isSummary === true) blocks = blocks.map((b) => (b.type === 'text' ? { type: 'summary', text: b.text, origin: 'agent', ref: b.ref, tokens: b.tokens } : b));
    }
    const modelInfo = isObj(m.modelInfo) ? m.modelInfo : undefined;
    messages.push({
      role: m.role, blocks, records: [r],
      timestamp: typeof m.ts === 'number' && Number.isFinite(m.ts) ? new Date(m.ts).toISOString() : undefined,
      model: typeof modelInfo?.modelId === 'string' ? modelInfo.modelId : undefined,
      apiId: typeof m.id === 'string' ? m.id : undefined,
    });
  }
  if (skipped) warnings.push(`${skipped} message(s) of ${API_FILE} are not user or assistant messages and were skipped`);
  const paired = repairToolPairs(pairTextResults(messages, variant), warnings);
  const absurdUsage = requestUsage(paired, api, ui, warnings);
  const extra: ClineExtra = { variant, api, ui, metadata: isObj(metaRaw) ? metaRaw : undefined, historyItem, visible };
  return clineSession({ folder, records, messages: paired, warnings, absurdUsage, extra, untagTitle: true });
}

/** A folder with only the UI log: the conversation as the user saw it; no API history, so it cannot be rewritten. */
function parseUiTask(uiFile: { path: string; text: string }, byName: Map<string, { path: string; text: string }>, options: ReadOptions): Session {
  const name = uiFile.path.slice(Math.max(uiFile.path.lastIndexOf('/'), uiFile.path.lastIndexOf('\\')) + 1);
  const ui = parseJson(name, uiFile.text);
  if (!Array.isArray(ui)) throw new Error(`${name} is not a JSON array of messages`);
  const warnings = [`${API_FILE} is missing: the conversation is rebuilt from ${name} (what the user saw, not what the model was sent); compaction needs ${API_FILE}`];
  const opt = (n: string): Obj | undefined => {
    const f = byName.get(n);
    if (!f) return undefined;
    try { const v = parseJson(n, f.text); return isObj(v) ? v : undefined; } catch { return undefined; }
  };
  const historyItem = opt(HISTORY_ITEM_FILE);
  const folder = uiFile.path.slice(0, Math.max(uiFile.path.lastIndexOf('/'), uiFile.path.lastIndexOf('\\')));
  const { records, messages: raw } = parseUiOnly(ui, options, warnings);
  const messages = repairToolPairs(raw, warnings);
  const extra: ClineExtra = { variant: variantOf(folder, ui, [], historyItem), api: [], ui, metadata: opt(METADATA_FILE), historyItem, visible: { indexes: [], edits: new Map(), notes: [] }, uiOnly: true };
  return clineSession({ folder, records, messages, warnings, extra, untagTitle: false });
}

/** The content as Cline sends it: context_history.json edits applied, tool_result blocks stripped after a cut. */
function withEdits(content: unknown, edits: Map<number, string> | undefined, strip: boolean): unknown {
  if (!Array.isArray(content) || (!edits && !strip)) return content;
  const out = content.map((b, i) => {
    const text = edits?.get(i);
    if (text === undefined || !isObj(b)) return b;
    if (b.type === 'text') return { ...b, text };
    if (b.type === 'tool_result' && Array.isArray(b.content) && isObj(b.content[0]) && b.content[0].type === 'text') return { ...b, content: [{ ...b.content[0], text }, ...b.content.slice(1)] };
    return b;
  });
  // Stripped blocks become holes, so every kept block keeps its index into the stored message.
  return strip ? out.map((b) => (isObj(b) && b.type === 'tool_result' ? null : b)) : out;
}
