// Model catalog lookup: prices and context windows from the offline snapshot of @pydantic/genai-prices (catalog.json).
import snapshot from './catalog.json';

/** USD per million tokens. Missing cache prices fall back (see pricing.ts). */
export interface TierPrice {
  readonly start: number;
  readonly input?: number;
  readonly output?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly cacheWrite1h?: number;
}

export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly cacheWrite1h?: number;
  /** Long-context pricing: applies to a whole request whose input (incl. cache) exceeds `start`. */
  readonly tier?: TierPrice;
}

/** The catalog's own match rules (genai-prices), case-insensitive except regexes. */
export type MatchRule =
  | { readonly or: readonly MatchRule[] } | { readonly and: readonly MatchRule[] }
  | { readonly equals: string } | { readonly starts_with: string } | { readonly ends_with: string }
  | { readonly contains: string } | { readonly regex: string };

export interface CatalogModel {
  readonly id: string;
  readonly provider: string;
  readonly match: MatchRule;
  readonly contextWindow?: number;
  readonly price: ModelPrice;
}

interface Snapshot { readonly source: string; readonly asOf: string; readonly models: readonly CatalogModel[] }
const CATALOG = snapshot as unknown as Snapshot;

/** "@pydantic/genai-prices@0.1.8 (prices as of 2026-12-01)": shown with costs and keyed into the usage cache. */
export const CATALOG_ID = `${CATALOG.source} (prices as of ${CATALOG.asOf})`;

function matches(rule: MatchRule, name: string): boolean {
  if ('or' in rule) return rule.or.some((r) => matches(r, name));
  if ('and' in rule) return rule.and.every((r) => matches(r, name));
  if ('equals' in rule) return name === rule.equals.toLowerCase();
  if ('starts_with' in rule) return name.startsWith(rule.starts_with.toLowerCase());
  if ('ends_with' in rule) return name.endsWith(rule.ends_with.toLowerCase());
  if ('contains' in rule) return name.includes(rule.contains.toLowerCase());
  return new RegExp(rule.regex).test(name);
}

/**
 * Strips what transcripts add around a catalog name: provider prefixes (`anthropic/`, `openai.`), context-size
 * tags (`[1m]`) and a `-latest` suffix. Dates stay: the catalog's own rules know them.
 */
export function normalizeModel(model: string): string {
  return model.trim().toLowerCase().replace(/^.*\//, '').replace(/\[[^\]]*\]$/, '').replace(/-latest$/, '');
}

const cache = new Map<string, CatalogModel | null>();

/** The catalog entry pricing `model`, or undefined (unknown, or not a plausible model name). */
export function findModel(model: string): CatalogModel | undefined {
  if (model.length === 0 || model.length > 200) return undefined;
  let hit = cache.get(model);
  if (hit === undefined) {
    const name = normalizeModel(model);
    const undated = name.replace(/-\d{8}$|-\d{4}-\d{2}-\d{2}$/, '');
    hit = CATALOG.models.find((m) => matches(m.match, name)) ?? CATALOG.models.find((m) => matches(m.match, undated)) ?? null;
    if (cache.size < 10_000) cache.set(model, hit);
  }
  return hit ?? undefined;
}

/** Context window (tokens) of `model` per the catalog, or undefined when it does not say. */
export function contextWindowOf(model: string): number | undefined {
  return findModel(model)?.contextWindow;
}
