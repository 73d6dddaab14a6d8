// Lint config: TypeScript rules plus the layer boundaries of ARCHITECTURE.md.
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'Only src/vscode/ may import vscode.' };
const nodeIo = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https'];
const sdks = ['@anthropic-ai/sdk', 'openai'];
const corePaths = [noVscode, ...[...nodeIo, ...sdks].map((name) => ({ name, message: 'src/core is pure: no file system, network or SDK imports (put them in src/node).' }))];
const corePure = { group: ['**/node/**', '**/vscode/**', '@anthropic-ai/sdk/*', 'openai/*'], message: 'src/core must not depend on src/node, src/vscode or SDKs.' };

const notifyOnly = {
  selector: 'MemberExpression[property.name=/^show(Information|Warning|Error)Message$/]',
  message: 'Use showInfo/showWarning/showError from src/vscode/notify.ts: transcript text there cannot form a command link.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', '.vscode-test/**', '.cache/**', '.cache-local/**', 'test/integration/workspace/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      curly: ['error', 'multi-line'],
    },
  },
  {
    // Tests read raw JSON records; typing every field there buys nothing.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: corePaths, patterns: [corePure] }] },
  },
  {
    // Layers point one way: what the registry imports (agent modules, the model, usage shapes) never imports it
    // back; test/unit/architecture/layers.test.ts checks the whole graph for cycles.
    files: ['src/core/model/**/*.ts', 'src/core/agents/**/*.ts', 'src/core/formats/*/**/*.ts', 'src/core/usage/types.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: corePaths,
        patterns: [corePure, { group: ['**/formats/registry'], message: 'Below the registry: take agent ids from core/model/ids.ts, not formats/registry.' }],
      }],
    },
  },
  {
    // The probe set grades the compactor: it shares no code with what it grades (cleanup, summary, compact, the
    // format readers, eval/text.ts). It imports its own files only; that rule also keeps core's purity rules.
    files: ['src/core/probes/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noVscode, ...[...nodeIo, ...sdks].map((name) => ({ name, message: 'src/core is pure: no file system, network or SDK imports (put them in src/node).' }))],
        patterns: [{ group: ['../**', '**/cleanup/**', '**/summary/**', '**/compact/**', '**/formats/**', '**/eval/**', '**/node/**', '**/vscode/**'], message: 'src/core/probes reads originals by its own code: it imports nothing outside src/core/probes.' }],
      }],
    },
  },
  {
    files: ['src/node/**/*.ts', 'src/protocol/**/*.ts', 'src/cli/**/*.ts', 'webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [{ group: ['**/vscode/**'], message: 'Only src/extension.ts and src/vscode/ may depend on src/vscode.' }] }] },
  },
  {
    // Notifications render `[x](command:…)` as a link that runs a command: their text goes through notify.ts.
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/notify.ts'],
    rules: {
      'no-restricted-syntax': ['error', notifyOnly],
    },
  },
  {
    // After the block above (a later no-restricted-syntax replaces an earlier one): a dynamic import() or require()
    // would slip past the probes' no-restricted-imports.
    files: ['src/core/probes/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', notifyOnly, { selector: 'ImportExpression, CallExpression[callee.name="require"]', message: 'src/core/probes imports nothing at run time: its own files only, statically.' }] },
  },
  {
    // The webview runs in a browser sandbox: it gets data through src/protocol messages only.
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noVscode, ...nodeIo.map((name) => ({ name, message: 'The webview runs in a browser: no Node modules.' }))],
        patterns: [{ group: ['**/src/vscode/**', '**/src/node/**', '**/src/cli/**'], message: 'The webview may import src/protocol (and types from src/core) only.' }],
      }],
    },
  },
);
