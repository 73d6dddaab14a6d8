// Packs the extension (`npm run package`), installs the .vsix into an empty extensions folder of the VS Code test
// host as a user would, and runs test/integration/packaged/ against that copy (runInVsCode.mjs, with a probe
// extension as the one "under development" that VS Code's test contract requires). Prints the package's size.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
const hostDir = path.resolve(process.env.VSCODE_TEST_HOST ?? path.join(root, '.vscode-test/host'));
const serverMain = path.join(hostDir, 'node_modules/code-server/lib/vscode/out/server-main.js');
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'context-compactor-vsix-'));
const vsix = path.join(data, 'context-compactor.vsix');
const extensions = path.join(data, 'extensions');

function step(what, command, args, options = {}) {
  const r = spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options });
  if (r.status !== 0) {
    console.error(`${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n'));
    console.error(`runPackaged: ${what} failed`);
    fs.rmSync(data, { recursive: true, force: true });
    process.exit(1);
  }
  return r;
}

try {
  step('npm run package', 'npm', ['run', 'package', '--', '--out', vsix]);
  console.log(`package: ${path.basename(vsix)} ${(fs.statSync(vsix).size / 1024).toFixed(0)} KB`);
  if (!fs.existsSync(serverMain)) step('the VS Code host setup', 'bash', [path.join(root, 'scripts/setup-vscode-host.sh')], { stdio: 'inherit' });
  step('installing the .vsix', process.execPath, [serverMain, '--install-extension', vsix, '--extensions-dir', extensions]);
  const run = spawnSync(process.execPath, [path.join(root, 'test/integration/runInVsCode.mjs')], {
    cwd: root, stdio: 'inherit',
    env: {
      ...process.env, VSCODE_TEST_HOST: hostDir, VSCODE_E2E_TESTS: path.join(root, 'dist/test/integration/packaged.js'),
      VSCODE_E2E_DEV: path.join(root, 'test/integration/packaged/probe'), VSCODE_E2E_EXTENSIONS_DIR: extensions, VSCODE_E2E_SHOT: 'packaged',
      // The status bar off at first: then nothing at all asks for a scan until the suite does (it turns it on later).
      VSCODE_E2E_SETTINGS: JSON.stringify({ 'contextCompactor.statusBar': false }),
    },
  });
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(data, { recursive: true, force: true });
}
