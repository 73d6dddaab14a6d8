// End of an extensionTestsPath entry's run(): hands the verdict to the runner and fails the run on any failure.
import { existsSync, writeFileSync } from 'node:fs';
import type { Verdict } from './harness.js';
import { generous } from '../support/waits.js';

export async function finish(verdict: Verdict): Promise<void> {
  // The web extension host ignores a rejected run(), so the verdict also goes to a file the runner reads.
  const resultFile = process.env['VSCODE_E2E_RESULT'];
  if (resultFile) {
    writeFileSync(resultFile, JSON.stringify(verdict, null, 2));
    // Stay alive until the runner has looked at the page: once run() returns the extension host exits and the
    // workbench drops its webviews' resource loads, so a webview still starting up (about 1-2 s) stays blank.
    await waitForFile(`${resultFile}.seen`, generous(60_000));
  }
  console.log(`${verdict.passed} passed, ${verdict.failed} failed`);
  if (verdict.failed > 0 || verdict.passed === 0) throw new Error(`${verdict.failed} of ${verdict.passed + verdict.failed} integration tests failed`);
}

async function waitForFile(file: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !existsSync(file) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
}
