// Snapshots prices and context windows of the Claude, GPT/Codex and Gemini families from @pydantic/genai-prices
// into src/core/usage/catalog.json, so the core prices usage offline. `npm run catalog` (after updating the package).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_PATH = join(REPO, 'src/core/usage/catalog.json');
const PACKAGE = '@pydantic/genai-prices';
/** Provider order is lookup order: the first model whose match rule accepts a name prices it. */
const PROVIDERS = ['anthropic', 'openai', 'google'];
/** The families we read transcripts of (the google provider also lists hosted Claude models: skipped). */
const FAMILIES = { anthropic: /^claude-/, openai: /^(gpt-[45]|gpt-6|o[134]|codex)/, google: /^gemini-/ };
/** Catalog price keys (USD per million tokens) → ours. */
const KEYS = { input_mtok: 'input', output_mtok: 'output', cache_read_mtok: 'cacheRead', cache_write_mtok: 'cacheWrite', cache_write_1h_mtok: 'cacheWrite1h' };

/** The price entry in force on `date`: the last one without a constraint or with a start date ≤ date. */
function pricesOn(model, date) {
  if (!Array.isArray(model.prices)) return model.prices;
  for (let i = model.prices.length - 1; i >= 0; i--) {
    const c = model.prices[i].constraint;
    if (c === undefined || (c.type === 'start_date' && new Date(c.start_date) <= date)) return model.prices[i].prices;
  }
  return model.prices[0].prices;
}

/** `{input: 3, tier: {start: 200000, input: 6}}`: one optional tier (the catalog's first), priced on the request's whole input. */
function flatten(prices) {
  const out = {};
  let tier;
  for (const [key, ours] of Object.entries(KEYS)) {
    const p = prices[key];
    if (typeof p === 'number') out[ours] = p;
    else if (p && typeof p === 'object' && typeof p.base === 'number') {
      out[ours] = p.base;
      const first = [...p.tiers].sort((a, b) => a.start - b.start)[0];
      if (first) (tier ??= { start: first.start })[ours] = first.price;
    }
  }
  if (out.input === undefined || out.output === undefined) return undefined;
  if (tier) out.tier = tier;
  return out;
}

/** `asOf` (YYYY-MM-DD) picks the prices in force that day; it is kept in the file so a test can rebuild it. */
export async function buildCatalog(asOf) {
  const date = new Date(asOf);
  const require = createRequire(import.meta.url);
  const version = JSON.parse(readFileSync(join(dirname(require.resolve(PACKAGE)), '../package.json'), 'utf8')).version;
  const { findProvider } = await import(PACKAGE);
  const models = [];
  for (const id of PROVIDERS) {
    const provider = findProvider({ providerId: id });
    if (!provider) throw new Error(`${PACKAGE} has no provider '${id}'`);
    for (const m of provider.models) {
      if (!FAMILIES[id].test(m.id)) continue;
      const price = flatten(pricesOn(m, date));
      if (!price) continue;
      models.push({ id: m.id, provider: id, match: m.match, ...(m.context_window ? { contextWindow: m.context_window } : {}), price });
    }
  }
  return { source: `${PACKAGE}@${version}`, asOf, models };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const catalog = await buildCatalog(process.argv[2] ?? new Date().toISOString().slice(0, 10));
  writeFileSync(CATALOG_PATH, `${JSON.stringify(catalog, null, 1)}\n`);
  console.log(`${CATALOG_PATH}: ${catalog.models.length} models from ${catalog.source}`);
}
