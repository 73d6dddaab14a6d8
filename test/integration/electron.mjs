// Runs the same integration suite in desktop VS Code through @vscode/test-electron (2.5.x, the last for Node 20).
// Needs update.code.visualstudio.com (or a VS Code already in .vscode-test/) and a display: `xvfb-run -a npm run test:electron`.
// Env: VSCODE_TEST_VERSION (default 1.100.3, what engines.vscode and the code-server runner use), VSCODE_EXECUTABLE.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { agentHomes } from './agentHomes.mjs';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'context-compactor-electron-'));
try {
  await runTests({
    version: process.env.VSCODE_TEST_VERSION ?? '1.100.3',
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE,
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'dist/test/integration/index.js'),
    extensionTestsEnv: agentHomes(root, data),
    // run() rejects on any failure, which makes test-electron exit non-zero; no verdict file is needed here.
    launchArgs: [path.join(root, 'test/integration/workspace'), '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (err) {
  console.error(`test:electron: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(data, { recursive: true, force: true });
}
