// A minimal sequential test runner for the extension host: named async tests, a per-test timeout, a JSON verdict.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { generous, WAIT_MS } from '../support/waits.js';
export interface Failure {
  readonly test: string;
  readonly error: string;
}

/** What the entry writes to $VSCODE_E2E_RESULT; runInVsCode.mjs reads it. */
export interface Verdict {
  readonly passed: number;
  readonly failed: number;
  readonly failures: readonly Failure[];
  /** Texts the runner must then find on the workbench page (notifications, for example). */
  readonly expectOnScreen: readonly string[];
  /** Measurements the runner hands on (runPackaged.mjs → the start-up benchmark); never asserted against a time. */
  readonly metrics: Record<string, number>;
}

type TestFn = () => Promise<void> | void;

const tests: { name: string; fn: TestFn }[] = [];
const onScreen: string[] = [];
const metrics: Record<string, number> = {};

export function recordMetric(name: string, value: number): void {
  metrics[name] = value;
}

export function test(name: string, fn: TestFn): void {
  tests.push({ name, fn });
}

/** Asks the runner to check, after the suite, that the workbench shows this text (the extension API cannot see notifications). */
export function expectOnScreen(text: string): void {
  onScreen.push(text);
}

/**
 * How checkScreen takes its picture: `hover` rests the pointer on a text first; `selector` saves only that part;
 * `pause` (ms) lets an animation end first (a toast fading in); `click` clicks a CSS selector first, in any frame;
 * `scrollTo` scrolls a text into view first (a section further down a preview).
 */
export interface ScreenView {
  readonly click?: string;
  readonly scrollTo?: string;
  readonly hover?: string;
  readonly selector?: string;
  readonly pause?: number;
}

/**
 * Asks the runner, now, whether the workbench shows `texts` (and loaded `images`, by file name), and to save
 * test-results/<shot>.png. Resolves to the ones not found, or undefined when no runner answers (the electron
 * runner has no page access).
 */
export async function checkScreen(texts: readonly string[], shot?: string, ms = 20_000, images: readonly string[] = [], view: ScreenView = {}): Promise<string[] | undefined> {
  const result = process.env['VSCODE_E2E_RESULT'];
  if (!result) return undefined;
  const done = `${result}.screen-done.json`;
  rmSync(done, { force: true });
  writeFileSync(`${result}.screen.json`, JSON.stringify({ texts, shot, images, ...view }));
  // The runner bounds its own look at the page by WAIT_MS; this waits for its answer longer still.
  const bound = generous(ms) + WAIT_MS;
  for (const end = Date.now() + bound; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (existsSync(done)) return (JSON.parse(readFileSync(done, 'utf8')) as { missing: string[] }).missing;
  }
  throw new Error(`the runner did not answer a screen check (${texts.length} texts${shot ? `, ${shot}` : ''}) within ${Math.round(bound / 1000)} s`);
}

function withTimeout(promise: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${name}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A test's own bound: a hang's, above the generous waits a failing test may go through first. */
export async function runAll(timeoutMs = 5 * WAIT_MS): Promise<Verdict> {
  const failures: Failure[] = [];
  for (const { name, fn } of tests) {
    const started = Date.now();
    try {
      await withTimeout(Promise.resolve().then(fn), timeoutMs, name);
      console.log(`  ok   ${name} (${Date.now() - started} ms)`);
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      failures.push({ test: name, error });
      console.log(`  FAIL ${name}\n${error}`);
    }
  }
  return { passed: tests.length - failures.length, failed: failures.length, failures, expectOnScreen: [...onScreen], metrics };
}
