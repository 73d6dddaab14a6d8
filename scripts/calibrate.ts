// Measures characters per o200k_base token for each content class on real transcripts (feeds ratios.ts).
//   npx tsx scripts/calibrate.ts FILE... [--json]
import { performance } from 'node:perf_hooks';
import { classify, type ContentClass } from '../src/core/tokens/estimate';
import { CHARS_PER_TOKEN } from '../src/core/tokens/ratios';
import { readTranscriptFile } from '../src/node/readTranscriptFile';
import { countO200k, liveTexts, loadO200k } from './lib/o200k';

/** Bounded sample: the tokenizer runs at ~5 MB/s, so a class gets at most this many evenly spread blocks… */
const MAX_BLOCKS = 400;
/** …each cut to this many characters (a whole-file `cat` would otherwise dominate its class). */
const MAX_CHARS = 32_000;

interface ClassStats { total: number; sampled: number; chars: number; tokens: number }

function sampleEvenly<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

/** Cut without splitting a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_CHARS) return text;
  const c = text.charCodeAt(MAX_CHARS - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? MAX_CHARS - 1 : MAX_CHARS);
}

async function main(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  if (files.length === 0) throw new Error('usage: npx tsx scripts/calibrate.ts FILE... [--json]');
  const byClass = new Map<ContentClass, string[]>();
  for (const f of files) {
    for (const t of liveTexts((await readTranscriptFile(f)).session)) {
      const c = classify(t);
      let list = byClass.get(c);
      if (!list) byClass.set(c, (list = []));
      list.push(t);
    }
  }
  const t0 = performance.now();
  loadO200k();
  const loadMs = performance.now() - t0;
  const stats = new Map<ContentClass, ClassStats>();
  let tokenizeMs = 0;
  for (const [c, texts] of byClass) {
    const s: ClassStats = { total: texts.length, sampled: 0, chars: 0, tokens: 0 };
    const t1 = performance.now();
    for (const t of sampleEvenly(texts, MAX_BLOCKS)) {
      const text = cut(t);
      s.sampled++;
      s.chars += text.length;
      s.tokens += countO200k(text);
    }
    tokenizeMs += performance.now() - t1;
    stats.set(c, s);
  }
  const classes = (Object.keys(CHARS_PER_TOKEN) as ContentClass[]).filter((c) => stats.has(c));
  const measured = Object.fromEntries(classes.map((c) => [c, Math.round((100 * stats.get(c)!.chars) / Math.max(1, stats.get(c)!.tokens)) / 100]));
  if (json) {
    process.stdout.write(`${JSON.stringify({ files, loadMs: Math.round(loadMs), tokenizeMs: Math.round(tokenizeMs), measured, stats: Object.fromEntries(stats) }, null, 2)}\n`);
    return;
  }
  const rows = classes.map((c) => {
    const s = stats.get(c)!;
    return [c, `${s.sampled}/${s.total}`, s.chars.toLocaleString('en-US'), s.tokens.toLocaleString('en-US'), measured[c]!.toFixed(2), CHARS_PER_TOKEN[c].toFixed(2)];
  });
  const head = ['class', 'blocks', 'chars', 'o200k tokens', 'chars/token', 'ratios.ts now'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((v, i) => (i === 0 ? v.padEnd(w[i]!) : v.padStart(w[i]!))).join('  ');
  process.stdout.write([line(head), ...rows.map(line)].join('\n'));
  process.stdout.write(`\n\ntokenizer: ${Math.round(loadMs)} ms to load, ${Math.round(tokenizeMs)} ms to count the sample\n`);
  const missing = (Object.keys(CHARS_PER_TOKEN) as ContentClass[]).filter((c) => !stats.has(c));
  if (missing.length) process.stdout.write(`no blocks of class ${missing.join(', ')} in these files: keep their current ratios\n`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
