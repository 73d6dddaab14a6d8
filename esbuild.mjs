// Bundles the extension host, the CLI, the webview and the integration-test entry with esbuild.
// Usage: node esbuild.mjs [--production] [--watch]   (tests import `builds` to bundle parts into a temp folder)
import * as esbuild from 'esbuild';
import { chmodSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the shape of the esbuild problem matcher, so `--watch` works from a VS Code task. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    if (watch) build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  // A missing named import is a bug, not a warning.
  logOverride: { 'import-is-undefined': 'error' },
  plugins: [problemMatcher],
};

/**
 * JSON modules (the 40 KB price catalog) as one JSON.parse of a string: V8 parses and builds that far faster than the
 * same data as an object literal, which a warm `usage` run would otherwise compile and run at start-up.
 */
const jsonAsParse = {
  name: 'json-as-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async (args) => ({
      contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', plugins: [...common.plugins, jsonAsParse] };

/**
 * The provider SDKs (1.3 MB Anthropic, 0.4 MB OpenAI) get bundles of their own in dist/vendor/, required only when
 * a provider module is first imported (createSummarizer imports those lazily): start-up neither parses nor runs them.
 */
const SDKS = { '@anthropic-ai/sdk': 'anthropic-sdk', openai: 'openai-sdk' };
/** `vendorDir`: where dist/vendor/ is, seen from the bundle being built. */
const sdksApart = (vendorDir) => ({
  name: 'sdks-apart',
  setup(build) {
    build.onResolve({ filter: /^(@anthropic-ai\/sdk|openai)$/ }, (args) => ({ path: `${vendorDir}/${SDKS[args.path]}.js`, external: true }));
  },
});
const vendor = Object.entries(SDKS).map(([pkg, name]) => ({ ...node, entryPoints: [pkg], outfile: `dist/vendor/${name}.js` }));

/**
 * The CLI: dist/cli-main.js holds the dispatcher, `usage` and `search` (a warm one of either is mostly start-up, and
 * this bundle alone runs from the code cache); inspect, compact, simulate, export, eval and hook are bundles of their
 * own in dist/cli/, which main.ts imports (requires) only when one is run.
 */
const COMMANDS = { inspectCommand: 'inspect', compactCommand: 'compact', simulateCommand: 'simulate', exportCommand: 'export', evalCommand: 'eval', hookCommand: 'hook' };
const commandsApart = {
  name: 'commands-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/(inspectCommand|compactCommand|simulateCommand|exportCommand|evalCommand|hookCommand)\.js$/ }, (args) =>
      args.importer.endsWith('main.ts') ? { path: `./cli/${COMMANDS[args.path.slice(2, -3)]}.js`, external: true } : undefined);
  },
};
/**
 * The CLI is minified in every build (source maps still beside it): less to read and parse at each start. Its
 * `import()`s become `require`s: dist/cli.js (src/cli/boot.ts) runs the bundles from V8's code cache through
 * vm.Script, where a dynamic import() would need Node's experimental loader hook.
 */
const cli = { ...node, minify: true, supported: { 'dynamic-import': false } };
const commands = Object.entries(COMMANDS).map(([source, name]) => ({
  ...cli, entryPoints: [`src/cli/${source}.ts`], outfile: `dist/cli/${name}.js`, plugins: [...node.plugins, sdksApart('../vendor')],
}));

/** @type {import('esbuild').BuildOptions[]} */
export const builds = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [...node.plugins, sdksApart('./vendor')] },
  // dist/cli.js, the executable, is the code-cache loader; the dispatcher and `usage` are dist/cli-main.js beside it.
  { ...node, minify: true, entryPoints: ['src/cli/boot.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...cli, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli-main.js', plugins: [...node.plugins, sdksApart('./vendor'), commandsApart] },
  ...commands,
  ...vendor,
  // The SessionStart hook alone, for the extension to copy where Claude Code runs it (src/vscode/hookCommands.ts).
  { ...node, minify: true, entryPoints: ['src/cli/hookCommand.ts'], outfile: 'dist/hook.js' },
  // The usage scan's second thread (src/node/usage/parseJobs.ts looks for it next to the bundle that starts it).
  { ...node, entryPoints: ['src/node/usage/parseWorker.ts'], outfile: 'dist/usageWorker.js' },
  // The extension host's document thread: store sessions, Cline tasks and JSON chats read off its main thread
  // (src/node/documentThread.ts looks for it next to the bundle that starts it).
  { ...node, entryPoints: ['src/node/documentWorker.ts'], outfile: 'dist/documentWorker.js' },
  // The Sessions view's search (src/node/search/searchJob.ts looks for it next to the bundle that starts it).
  { ...node, entryPoints: ['src/node/search/searchWorker.ts'], outfile: 'dist/searchWorker.js' },
  // The worker threads of `eval --jobs` (src/node/eval/runEval.ts looks for it beside the bundle that starts it or one folder up).
  { ...node, entryPoints: ['src/node/eval/worker.ts'], outfile: 'dist/evalWorker.js', plugins: [...node.plugins, sdksApart('./vendor')] },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' },
  // Loaded by VS Code's extension host as extensionTestsPath; never shipped (.vscodeignore).
  { ...node, entryPoints: ['test/integration/index.ts'], outfile: 'dist/test/integration/index.js', external: ['vscode'] },
  { ...node, entryPoints: ['test/integration/packaged/index.ts'], outfile: 'dist/test/integration/packaged.js', external: ['vscode'] },
];

async function main() {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  const results = await Promise.allSettled(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) {
    for (const r of failed) if (r.reason?.errors === undefined) console.error(r.reason);
    process.exit(1);
  }
  chmodSync('dist/cli.js', 0o755);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
