// `npm run screens`: screenshots of every screen (test/integration/screens/screens.ts) in the real VS Code 1.100.3
// host over a throwaway home of real sessions (test/integration/screens/home.mjs), in Light Modern and Dark Modern.
// Writes test-results/screens/<theme>-<screen>.png and prints them. Not part of `npm test`.
// Options: --theme light|dark (one theme), --only sessions,composition (some screens), --featured <part of a file name>
// (the session the composition, cleanup and compact screens open), --keep-turns N (the recent part they start from),
// --docs (then copy the README's pictures, DOCS below, into docs/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' };
/** README pictures (docs/<name>) ← screenshots (test-results/screens/<file>). */
const DOCS = {
  'sessions.png': 'light-sessions-crop.png', 'sessions-dark.png': 'dark-sessions-crop.png',
  'composition.png': 'light-composition-crop.png', 'composition-dark.png': 'dark-composition-crop.png', 'simulator.png': 'light-simulator-crop.png',
  'compact-diff.png': 'light-compact-diff-crop.png', 'compact-report-dark.png': 'dark-compact-report-crop.png',
  'search.png': 'light-search-crop.png', 'search-match-dark.png': 'dark-search-match-crop.png',
  'continue-in-pick.png': 'light-continue-in-pick-crop.png', 'continue-in.png': 'light-continue-in.png',
};
const arg = (name) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const themes = arg('theme') ? [arg('theme')] : Object.keys(THEMES);
for (const t of themes) if (!THEMES[t]) { console.error(`screens: unknown theme ${t} (light or dark)`); process.exit(2); }
const out = path.join(root, 'test-results/screens');
const only = (arg('only') ?? '').split(',').filter(Boolean);
const entry = path.join(root, 'dist/test/integration/screens.js');

const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// Bundled here, not in esbuild.mjs: the screens entry is a tool of its own, never part of a build or a package.
await esbuild.build({
  entryPoints: [path.join(root, 'test/integration/screens/index.ts')], outfile: entry, bundle: true, platform: 'node',
  format: 'cjs', target: 'node20', sourcemap: true, external: ['vscode'], logLevel: 'warning',
});

let failed = 0;
for (const theme of themes) {
  // Earlier pictures of the screens about to be taken go (all of this theme's, unless --only names some).
  const retaken = (f) => f.startsWith(`${theme}-`) && (only.length === 0 || only.some((n) => f === `${theme}-${n}.png` || f === `${theme}-${n}-crop.png`));
  for (const f of fs.existsSync(out) ? fs.readdirSync(out) : []) if (retaken(f)) fs.rmSync(path.join(out, f));
  // The window opens a folder of its own (Accept may write there); the agent home is built by the runner.
  const workspace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'context-compactor-screens-')), 'my-project');
  fs.mkdirSync(workspace);
  console.log(`screens: ${THEMES[theme]}`);
  const run = spawnSync(process.execPath, [path.join(root, 'test/integration/runInVsCode.mjs')], {
    cwd: root, stdio: 'inherit',
    env: {
      ...process.env, VSCODE_E2E_TESTS: entry, VSCODE_E2E_WORKSPACE: workspace,
      VSCODE_E2E_AGENT_HOMES: path.join(root, 'test/integration/screens/home.mjs'), VSCODE_E2E_SHOT: `screens/${theme}-end`,
      VSCODE_E2E_TIMEOUT_MS: process.env.VSCODE_E2E_TIMEOUT_MS ?? '1500000', SCREENS_THEME: theme, SCREENS_ONLY: arg('only') ?? '', SCREENS_FEATURED: arg('featured') ?? '', SCREENS_KEEP_TURNS: arg('keep-turns') ?? '',
      VSCODE_E2E_SETTINGS: JSON.stringify({ 'workbench.colorTheme': THEMES[theme] }),
    },
  });
  if (run.status !== 0) failed++;
  fs.rmSync(path.dirname(workspace), { recursive: true, force: true });
}

const shots = fs.existsSync(out) ? fs.readdirSync(out).filter((f) => f.endsWith('.png')).sort() : [];
console.log(`\n${shots.length} screenshots:`);
for (const f of shots) console.log(`  ${path.relative(process.cwd(), path.join(out, f))}`);
if (process.argv.includes('--docs')) {
  if (failed > 0) console.error('screens: --docs skipped: some screens failed');
  else {
    for (const [doc, shotName] of Object.entries(DOCS)) {
      const from = path.join(out, shotName);
      if (fs.existsSync(from)) fs.copyFileSync(from, path.join(root, 'docs', doc));
      console.log(`${fs.existsSync(from) ? 'copied' : 'missing (not taken this run)'}: docs/${doc} ← ${shotName}`);
    }
  }
}
if (failed > 0) console.error(`screens: ${failed} of ${themes.length} runs had failing screens (see FAIL above)`);
process.exit(failed > 0 ? 1 : 0);
