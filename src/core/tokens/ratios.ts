// Characters per o200k_base token by content class. Regenerate with `npx tsx scripts/calibrate.ts`.
export type ContentClass = 'prose' | 'code' | 'json' | 'opaque' | 'cjk';

// Measured 2026-12-02 with gpt-tokenizer 3.4.0 (o200k_base) on the live blocks of bench/data/claude-8mb.jsonl.gz
// (Claude Code 2.1.328), bench/data/codex-4mb.jsonl.gz (Codex 0.169) and test/fixtures/claude-code/sample.jsonl:
// prose 3.20 (448 blocks; tool output with line-number gutters classifies as prose, hence below English's ~4.3),
// code 3.23, json 3.53, cjk 0.66. No opaque block in those files: 1.6 is kept from the earlier table.
export const CHARS_PER_TOKEN: Readonly<Record<ContentClass, number>> = {
  prose: 3.2,
  code: 3.23,
  json: 3.53,
  opaque: 1.6,
  cjk: 0.66,
};
