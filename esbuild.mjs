// Bundles the extension host, the CLI, the webview and the integration-test entry with esbuild.
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { chmodSync } from 'node:fs';

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

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The worker thread of `eval --jobs` (CLI and extension alike load it from beside their bundle).
  { ...node, entryPoints: ['src/node/eval/worker.ts'], outfile: 'dist/evalWorker.js' },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' },
  // Loaded by VS Code's extension host as extensionTestsPath; never shipped (.vscodeignore).
  { ...node, entryPoints: ['test/integration/index.ts'], outfile: 'dist/test/integration/index.js', external: ['vscode'] },
];

const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
if (watch) {
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  const results = await Promise.allSettled(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) {
    for (const r of failed) if (r.reason?.errors === undefined) console.error(r.reason);
    process.exit(1);
  }
  chmodSync('dist/cli.js', 0o755);
}
