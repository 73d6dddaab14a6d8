// Characters per o200k_base token by content class. Regenerate with `npx tsx scripts/calibrate.ts`.
export type ContentClass = 'prose' | 'code' | 'json' | 'opaque' | 'cjk';

export const CHARS_PER_TOKEN: Readonly<Record<ContentClass, number>> = {
  prose: 4.3,
  code: 3.4,
  json: 3.0,
  opaque: 1.6,
  cjk: 1.2,
};
