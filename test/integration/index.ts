// extensionTestsPath entry (VS Code's run() contract), shared by the code-server runner and @vscode/test-electron.
import { finish } from './finish.js';
import { runAll } from './harness.js';
import './suite/activation.test.js';
import './suite/apiKeys.test.js';
// Early: it clears its own toast, so nothing of it covers what later tests look for.
import './suite/hook.test.js';
// Before inspect: its notification is checked at the very end, and VS Code hides error toasts after 20 s.
import './suite/sessions.test.js';
// Before inspect and composition too: its toasts and editors would cover what the end of the suite looks for.
import './suite/eval.test.js';
// Also before inspect: compacting and resuming leave notifications of their own, which would push inspect's out of
// the notifications center's visible rows.
import './suite/compact.test.js';
import './suite/resume.test.js';
// Before inspect and composition: it opens composition panels of its own, which composition.test closes.
import './suite/search.test.js';
import './suite/inspect.test.js';
import './suite/composition.test.js';

export async function run(): Promise<void> {
  await finish(await runAll());
}
