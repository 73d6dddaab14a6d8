// Turns Claude Code message content (Anthropic API blocks) into normalized blocks.
import type { Block, SourceRef } from '../../model/transcript';
import { SUMMARY_HEADER } from '../../summary/prompt';
import { stringifySafe } from '../../read/safeJson';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Claude Code opens a result it saved to a file (the text is then a preview) with this tag: only at the start. */
export const PERSISTED_OUTPUT = '<persisted-output>';
const REMINDER = '<system-reminder>';
const SIGNATURE_CHARS_PER_TOKEN = 5;

function textBlock(text: string, ref: SourceRef, role: 'user' | 'assistant'): Block {
  if (role === 'user' && text.startsWith(SUMMARY_HEADER)) return { type: 'summary', text, origin: 'context-compactor', ref, tokens: estimateTokens(text) };
  if (role === 'user' && text.startsWith(REMINDER)) return { type: 'meta', subtype: 'system-reminder', text, ref, tokens: estimateTokens(text) };
  return { type: 'text', text, ref, tokens: estimateTokens(text) };
}

function media(b: Obj, ref: SourceRef): Block {
  const source = isObj(b.source) ? b.source : {};
  const data = str(source.data);
  const mime = str(source.media_type) || (b.type === 'document' ? 'application/pdf' : 'image/*');
  return { type: 'media', mime, bytes: Math.floor((data.length * 3) / 4), ref, tokens: IMAGE_TOKENS };
}

/** Text and image count of a tool_result's content (a string or an array of blocks). */
export function resultContent(content: unknown): { text: string; media: number; mediaBytes: number } {
  if (typeof content === 'string') return { text: content, media: 0, mediaBytes: 0 };
  if (!Array.isArray(content)) return { text: '', media: 0, mediaBytes: 0 };
  const parts: string[] = [];
  let mediaCount = 0, mediaBytes = 0;
  for (const c of content) {
    if (!isObj(c)) continue;
    if (c.type === 'text') parts.push(str(c.text));
    else if (c.type === 'image' || c.type === 'document') {
      mediaCount++;
      mediaBytes += str(isObj(c.source) ? c.source.data : '').length;
    }
  }
  // One part (the usual case) is its own text: join would copy it.
  return { text: parts.length === 1 ? parts[0]! : parts.join('\n'), media: mediaCount, mediaBytes };
}

/** `onTooDeep` hears of a value nested too deeply to serialize whole (its deepest parts are left out of the text). */
export function contentBlocks(content: unknown, base: SourceRef, role: 'user' | 'assistant', onTooDeep?: () => void): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [textBlock(content, base, role)];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  for (let index = 0; index < content.length; index++) {
    const b: unknown = content[index];
    if (!isObj(b)) continue;
    const ref: SourceRef = { record: base.record, index };
    switch (b.type) {
      case 'text': out.push(textBlock(str(b.text), ref, role)); break;
      case 'thinking': {
        const text = str(b.thinking);
        const sig = str(b.signature).length;
        // Claude Code 2.x records thinking without its text (display redacted); the model still receives it, and
        // the signature's length tracks its size: ~5 characters a token against the recorded usage of real sessions.
        out.push({ type: 'reasoning', text, opaqueBytes: sig, ref, tokens: text ? estimateTokens(text) : Math.round(sig / SIGNATURE_CHARS_PER_TOKEN) });
        break;
      }
      case 'redacted_thinking': {
        const data = str(b.data);
        out.push({ type: 'reasoning', text: '', opaqueBytes: data.length, ref, tokens: Math.ceil(data.length / 4) });
        break;
      }
      case 'tool_use':
      case 'server_tool_use': {
        const inputText = stringifySafe(b.input ?? {}, onTooDeep);
        out.push({ type: 'tool_call', id: str(b.id), name: str(b.name), input: b.input, inputText, ref, tokens: estimateTokens(inputText) + 8 });
        break;
      }
      case 'tool_result':
      case 'web_search_tool_result': {
        const c = resultContent(b.content);
        const text = c.text || (b.type === 'web_search_tool_result' ? stringifySafe(b.content ?? '', onTooDeep) : '');
        out.push({
          type: 'tool_result', id: str(b.tool_use_id), text, isError: b.is_error === true, mediaCount: c.media,
          persisted: text.startsWith(PERSISTED_OUTPUT), ref, tokens: estimateTokens(text) + c.media * IMAGE_TOKENS + 4,
        });
        break;
      }
      case 'image':
      case 'document': out.push(media(b, ref)); break;
      default: {
        const text = stringifySafe(b, onTooDeep);
        out.push({ type: 'meta', subtype: `block:${str(b.type) || 'unknown'}`, text, ref, tokens: estimateTokens(text) });
      }
    }
  }
  return out;
}
