// Codex's apply_patch text ↔ the one write or edit other agents' file tools make: a patch that adds one file or
// changes one place of one file maps both ways; anything larger stays a patch (folded into words elsewhere).
import type { ToolIntent } from './intent';

const BEGIN = '*** Begin Patch', END = '*** End Patch';

/** A patch creating `path` with `content`. */
export function writeToPatch(path: string, content: string): string {
  const body = content.endsWith('\n') ? content.slice(0, -1) : content;
  return [BEGIN, `*** Add File: ${path}`, ...body.split('\n').map((l) => `+${l}`), END, ''].join('\n');
}

/** A patch replacing `oldText` with `newText` in `path` (one hunk). */
export function editToPatch(path: string, oldText: string, newText: string): string {
  const lines = (s: string): string[] => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));
  return [BEGIN, `*** Update File: ${path}`, '@@', ...lines(oldText).map((l) => `-${l}`), ...lines(newText).map((l) => `+${l}`), END, ''].join('\n');
}

/** The one write or edit a patch makes, or undefined when it makes more (several files or hunks, a move, a delete). */
export function patchToEdits(patch: string): ToolIntent | undefined {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === BEGIN);
  const end = lines.findIndex((l) => l.trim() === END);
  if (begin < 0 || end <= begin) return undefined;
  const body = lines.slice(begin + 1, end);
  const header = body[0] ?? '';
  if (body.slice(1).some((l) => l.startsWith('*** '))) return undefined; // a second file, a move or a delete
  const add = /^\*\*\* Add File: (.+)$/.exec(header);
  if (add) {
    if (!body.slice(1).every((l) => l.startsWith('+'))) return undefined;
    return { kind: 'write', path: add[1]!.trim(), content: body.slice(1).map((l) => l.slice(1)).join('\n') + '\n' };
  }
  const update = /^\*\*\* Update File: (.+)$/.exec(header);
  if (!update) return undefined;
  const hunk = body.slice(1);
  if (hunk[0]?.startsWith('@@')) hunk.shift();
  if (hunk.some((l) => l.startsWith('@@'))) return undefined; // more than one hunk
  const oldLines: string[] = [], newLines: string[] = [];
  for (const l of hunk) {
    const sign = l[0], text = l.slice(1);
    if (sign === ' ' || l === '') { oldLines.push(text); newLines.push(text); }
    else if (sign === '-') oldLines.push(text);
    else if (sign === '+') newLines.push(text);
    else return undefined;
  }
  if (oldLines.length === 0) return undefined; // an insertion with no context has no place to go
  return { kind: 'edit', path: update[1]!.trim(), oldText: oldLines.join('\n'), newText: newLines.join('\n') };
}
