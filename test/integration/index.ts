// extensionTestsPath entry (VS Code's run() contract), shared by the code-server runner and @vscode/test-electron.
import { existsSync, writeFileSync } from 'node:fs';
import { runAll } from './harness.js';
import './suite/activation.test.js';
import './suite/apiKeys.test.js';
// Before inspect: its notification is checked at the very end, and VS Code hides error toasts after 20 s.
import './suite/sessions.test.js';
import './suite/inspect.test.js';
import './suite/compact.test.js';
import './suite/composition.test.js';
import './suite/eval.test.js';

export async function run(): Promise<void> {
  const verdict = await runAll();
  // The web extension host ignores a rejected run(), so the verdict also goes to a file the runner reads.
  const resultFile = process.env['VSCODE_E2E_RESULT'];
  if (resultFile) {
    writeFileSync(resultFile, JSON.stringify(verdict, null, 2));
    // Stay alive until the runner has looked at the page: once run() returns the extension host exits and the
    // workbench drops its webviews' resource loads, so a webview still starting up (about 1-2 s) stays blank.
    await waitForFile(`${resultFile}.seen`, 60_000);
  }
  console.log(`${verdict.passed} passed, ${verdict.failed} failed`);
  if (verdict.failed > 0 || verdict.passed === 0) throw new Error(`${verdict.failed} of ${verdict.passed + verdict.failed} integration tests failed`);
}

async function waitForFile(file: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !existsSync(file) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
}
