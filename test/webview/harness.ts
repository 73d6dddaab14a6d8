// Chromium harness for the webview: bundles webview/main.ts, serves it under the panel's CSP, fakes the host.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { CleanupOptions } from '../../src/core/cleanup/types';
import type { AnalysisDefaults } from '../../src/node/analysisView';
import type { CompositionModel } from '../../src/node/compositionView';
import { isFromWebview, type FromWebview, type ToWebview, type WebviewState } from '../../src/protocol/messages';
import { CompositionController } from '../../src/vscode/compositionController';
import { createNonce, webviewHtml } from '../../src/vscode/webviewHtml';
import { WAIT_MS } from '../support/waits';
import { DARK_THEME } from './darkTheme';

// Page-side globals for the functions run in Chromium (this project's tsconfig has no DOM lib, on purpose).
declare const window: any;
declare const document: any;

const ROOT = path.resolve(__dirname, '..', '..');

export interface Harness {
  readonly browser: Browser;
  readonly origin: string;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const bundle = await build({
    entryPoints: [path.join(ROOT, 'webview', 'main.ts')], bundle: true, format: 'iife', platform: 'browser',
    target: 'chrome120', write: false, logLevel: 'silent', logOverride: { 'import-is-undefined': 'error' },
  });
  const script = bundle.outputFiles[0]!.text;
  const css = await readFile(path.join(ROOT, 'media', 'composition.css'), 'utf8');
  let origin = '';
  const server: Server = createServer((req, res) => {
    const send = (type: string, body: string): void => { res.writeHead(200, { 'content-type': type }); res.end(body); };
    if (req.url === '/dist/webview.js') return send('text/javascript', script);
    if (req.url === '/media/composition.css') return send('text/css', css);
    if (req.url === '/favicon.ico') return send('image/x-icon', '');
    if (req.url === '/') {
      return send('text/html', webviewHtml({ cspSource: origin, nonce: createNonce(), scriptUri: `${origin}/dist/webview.js`, styleUri: `${origin}/media/composition.css`, title: 'test' }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    browser, origin,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface WebviewPage {
  readonly page: Page;
  /** Every message the webview posted, in order. */
  readonly posted: FromWebview[];
  send(message: ToWebview): Promise<void>;
  /** Every message the host posted, in order. */
  readonly received: ToWebview[];
  /** Cleanup options of each `openDiff` the host ran. */
  readonly diffs: CleanupOptions[];
  cspViolations(): Promise<string[]>;
  /** The longest main-thread task so far, in ms (0 if none passed 50 ms): a diagnostic and a bench figure, never asserted. */
  longestTask(): Promise<number>;
  /** How many elements the page holds: what a virtualized list and downsampled charts keep bounded. */
  domNodes(): Promise<number>;
  /** Resolves when the page paints its next frame: it is answering, not stuck in a task. */
  nextFrame(): Promise<void>;
  close(): Promise<void>;
}

/** Adds what a page wait was for to Playwright's timeout message (a function's wait names no selector). */
export const waitingFor = <T>(what: string, wait: Promise<T>): Promise<T> =>
  wait.catch((e: unknown) => { throw new Error(`waiting for ${what}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`); });

/** The settings the fake host starts the Simulator and Cleanup from (the extension's defaults). */
export const TEST_DEFAULTS: AnalysisDefaults = { threshold: 150_000, cleanup: { keepRecentTurns: 6, keepRecentTokens: 0, rules: {} } };

/**
 * Opens the page with a stub acquireVsCodeApi wired to the panel's real CompositionController, with
 * the model already loaded (no file read) and VS Code's parts (reveal, the compact command) recorded.
 * `savedState` is what `getState()` returns, as after the webview was hidden and shown again.
 */
export async function openWebview(harness: Harness, model: CompositionModel, savedState?: WebviewState): Promise<WebviewPage> {
  const page = await harness.browser.newPage({ viewport: { width: 1100, height: 1000 }, colorScheme: 'dark' });
  // Every wait (a selector, a click) gets the generous bound; Playwright's timeout names the selector it waited for.
  page.setDefaultTimeout(WAIT_MS);
  const posted: FromWebview[] = [];
  const received: ToWebview[] = [];
  const diffs: CleanupOptions[] = [];
  const send = (message: ToWebview): Promise<void> => page.evaluate((m) => window.postMessage(m, '*'), message);
  const controller = new CompositionController(model.view.file, {
    post: (message) => { received.push(message); void send(message).catch(() => undefined); }, // the page may be closing
    load: async () => model,
    reveal: async () => undefined,
    setTitle: () => undefined,
    defaults: () => TEST_DEFAULTS,
    openDiff: async (_file, cleanup) => { diffs.push(cleanup); },
  });
  await page.exposeFunction('__toHost', (message: unknown) => {
    if (!isFromWebview(message)) throw new Error(`webview posted a malformed message: ${JSON.stringify(message)}`);
    posted.push(message);
    controller.receive(message);
  });
  await controller.load();
  // tsx compiles the page functions below with esbuild's keepNames, which calls a `__name` helper.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  // Init scripts run through the DevTools protocol, so the page's CSP does not apply to them.
  await page.addInitScript(({ theme, saved }) => {
    const w = window as any;
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e: any) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    // Main-thread tasks over 50 ms, to bound how long the page freezes.
    w.__longTasks = [];
    new w.PerformanceObserver((list: any) => { for (const e of list.getEntries()) w.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
    let state: unknown = saved;
    w.acquireVsCodeApi = () => ({ postMessage: (m: unknown) => w.__toHost(m), getState: () => state, setState: (s: unknown) => { state = s; w.__state = s; } });
    // What VS Code does for a webview: theme variables on <html>, theme class on <body>.
    document.addEventListener('DOMContentLoaded', () => {
      for (const [k, v] of Object.entries(theme)) document.documentElement.style.setProperty(k, v);
      document.body.classList.add('vscode-dark');
    });
  }, { theme: DARK_THEME, saved: savedState });
  await page.goto(`${harness.origin}/`);
  return {
    page, posted, send, received, diffs,
    cspViolations: () => page.evaluate(() => (window as any).__csp as string[]),
    longestTask: () => page.evaluate(() => Math.max(0, ...((window as any).__longTasks as number[]))),
    domNodes: () => page.evaluate(() => document.getElementsByTagName('*').length as number),
    nextFrame: () => page.evaluate(() => new Promise<void>((resolve) => (window as any).requestAnimationFrame(() => resolve()))),
    close: () => { controller.dispose(); return page.close(); },
  };
}
