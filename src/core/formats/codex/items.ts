// Converts Codex ResponseItems (the model-visible history) into normalized blocks.
import type { Block, SourceRef } from '../../model/transcript';
import { SUMMARY_HEADER } from '../../summary/prompt';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';
import { stringifySafe } from '../../read/safeJson';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Harness-injected user/developer text that is context, not something the person typed. */
const HARNESS_PREFIXES = ['<environment_context>', '<user_instructions>', '<permissions instructions>', '# AGENTS.md', '<skills_instructions>', '<INSTRUCTIONS>', '<turn_aborted>'];
export const isHarnessText = (t: string): boolean => HARNESS_PREFIXES.some((p) => t.trimStart().startsWith(p));

/** Tool item types: the block each becomes and the field holding it (usually most of the line's bytes). */
export const TOOL_ITEMS: Readonly<Record<string, { readonly field: string; readonly block: 'tool_call' | 'tool_result'; readonly object?: true }>> = {
  function_call: { field: 'arguments', block: 'tool_call' },
  custom_tool_call: { field: 'input', block: 'tool_call' },
  function_call_output: { field: 'output', block: 'tool_result' },
  custom_tool_call_output: { field: 'output', block: 'tool_result' },
  // Its field is an object (`{type: "exec", command: [...]}`), written back as one.
  local_shell_call: { field: 'action', block: 'tool_call', object: true },
};

/** Which side of the conversation an item belongs to. */
export type ItemSide = 'input' | 'output' | 'none';

export interface ConvertedItem {
  readonly side: ItemSide;
  readonly role: 'user' | 'assistant' | 'system';
  readonly blocks: Block[];
  readonly toolResultsOnly?: boolean;
}

const EXIT_CODE = /Process exited with code (\d+)|^Exit code: (\d+)/m;

/** Codex before ~0.46 wrapped shell output as JSON: `{"output": "...", "metadata": {"exit_code": N}}`. */
function wrappedOutput(s: string): { text: string; isError: boolean } | undefined {
  if (!s.startsWith('{"output":')) return undefined;
  try {
    const o: unknown = JSON.parse(s);
    if (!isObj(o) || typeof o.output !== 'string') return undefined;
    const code = isObj(o.metadata) ? o.metadata.exit_code : undefined;
    return { text: o.output, isError: typeof code === 'number' && code !== 0 };
  } catch {
    return undefined;
  }
}

export function outputText(output: unknown): { text: string; media: number; isError: boolean } {
  if (typeof output === 'string') {
    const wrapped = wrappedOutput(output);
    if (wrapped) return { ...wrapped, media: 0 };
    const m = EXIT_CODE.exec(output.slice(0, 400));
    // Older rollouts report a refused or failed command as text, without an exit code header.
    return { text: output, media: 0, isError: m ? (m[1] ?? m[2]) !== '0' : /^(failed in sandbox|execution error|error:)/i.test(output) };
  }
  if (Array.isArray(output)) {
    const parts: string[] = [];
    let media = 0;
    for (const o of output) {
      if (!isObj(o)) continue;
      if (o.type === 'input_image') media++;
      else parts.push(str(o.text));
    }
    return { ...outputText(parts.join('\n')), media };
  }
  if (isObj(output)) return { text: str(output.content), media: 0, isError: output.success === false };
  return { text: '', media: 0, isError: false };
}

/**
 * A developer message the harness adds during the session (a collaboration-mode or model switch, an approved command
 * prefix, a plugin's capabilities, a changed sandbox): a notice in the history, not the initial context it re-sends.
 */
export const DEVELOPER_NOTICE = 'notice';

function messageBlocks(p: Obj, base: SourceRef, role: string, midSession: boolean): Block[] {
  const out: Block[] = [];
  const parts: unknown[] = Array.isArray(p.content) ? p.content : [];
  for (let index = 0; index < parts.length; index++) {
    const c = parts[index];
    if (!isObj(c)) continue;
    const ref: SourceRef = { ...base, index };
    if (c.type === 'input_image') { out.push({ type: 'media', mime: 'image/*', bytes: Math.floor(str(c.image_url).length * 0.75), ref, tokens: IMAGE_TOKENS }); continue; }
    const text = str(c.text);
    if (role === 'user' && text.startsWith(SUMMARY_HEADER)) { out.push({ type: 'summary', text, origin: 'context-compactor', ref, tokens: estimateTokens(text) }); continue; }
    if (role === 'developer' || role === 'system' || (role === 'user' && isHarnessText(text))) out.push({ type: 'meta', subtype: role === 'user' ? 'harness' : role === 'developer' && midSession ? DEVELOPER_NOTICE : role, text, ref, tokens: estimateTokens(text) });
    else out.push({ type: 'text', text, ref, tokens: estimateTokens(text) });
  }
  return out;
}

/**
 * `onTooDeep` hears of a value nested too deeply to serialize whole (see read/safeJson); `midSession`: the person has
 * typed a prompt already, so a developer message is a notice (the initial context comes before the first prompt, and
 * a compaction's replacement history re-injects it as its own).
 */
export function convertItem(p: Obj, ref: SourceRef, onTooDeep?: () => void, midSession = false): ConvertedItem | undefined {
  switch (p.type) {
    case 'message': {
      const role = str(p.role);
      const blocks = messageBlocks(p, ref, role, midSession);
      if (role === 'assistant') return { side: 'output', role: 'assistant', blocks };
      return { side: 'input', role: role === 'user' ? 'user' : 'system', blocks };
    }
    case 'reasoning': {
      const summary = (Array.isArray(p.summary) ? p.summary : []).map((s) => (isObj(s) ? str(s.text) : '')).join('\n');
      const content = (Array.isArray(p.content) ? p.content : []).map((s) => (isObj(s) ? str(s.text) : '')).join('\n');
      const text = [summary, content].filter(Boolean).join('\n');
      const opaque = str(p.encrypted_content).length;
      return { side: 'output', role: 'assistant', blocks: [{ type: 'reasoning', text, opaqueBytes: opaque, ref, tokens: estimateTokens(text) + Math.ceil(opaque / 4) }] };
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'web_search_call':
    case 'tool_search_call': {
      const raw = p.type === 'function_call' ? str(p.arguments) : p.type === 'custom_tool_call' ? str(p.input) : stringifySafe(p.action ?? p.arguments ?? {}, onTooDeep);
      let input: unknown = raw;
      if (p.type === 'function_call') { try { input = JSON.parse(raw); } catch { input = raw; } }
      if (p.type === 'local_shell_call' && isObj(p.action)) input = p.action;
      const name = str(p.name) || String(p.type).replace(/_call$/, '');
      // A web search runs on the server: its result reaches the model inside the call, no output item follows.
      const standalone = p.type === 'web_search_call' ? { standalone: true } : {};
      return { side: 'output', role: 'assistant', blocks: [{ type: 'tool_call', id: str(p.call_id) || str(p.id), name, input, inputText: raw, ref, tokens: estimateTokens(raw) + 8, ...standalone }] };
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'tool_search_output': {
      const o = outputText(p.output);
      return {
        side: 'input', role: 'user', toolResultsOnly: true,
        blocks: [{ type: 'tool_result', id: str(p.call_id), text: o.text, isError: o.isError, mediaCount: o.media, persisted: false, ref, tokens: estimateTokens(o.text) + o.media * IMAGE_TOKENS + 4 }],
      };
    }
    case 'compaction':
    case 'compaction_summary': {
      const opaque = str(p.encrypted_content).length;
      return { side: 'input', role: 'user', blocks: [{ type: 'summary', text: '', origin: 'agent', ref, tokens: Math.ceil(opaque / 4) }] };
    }
    case 'ghost_snapshot':
      return undefined;
    default: {
      const text = stringifySafe(p, onTooDeep);
      return { side: 'none', role: 'system', blocks: [{ type: 'meta', subtype: `item:${str(p.type) || 'unknown'}`, text, ref, tokens: estimateTokens(text) }] };
    }
  }
}
