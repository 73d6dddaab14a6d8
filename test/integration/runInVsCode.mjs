// Runs the integration suite inside a real VS Code 1.100.3 extension host (the server shipped in code-server's npm
// package) with the web workbench in headless Debian Chromium, offline. Install the host first:
// `bash scripts/setup-vscode-host.sh`. Env: VSCODE_TEST_HOST (host dir), VSCODE_E2E_TIMEOUT_MS (default 20 min, a hang's
// bound), CONTEXT_COMPACTOR_TEST_WAIT_SCALE (multiplies every wait's 120 s bound, as test/support/waits.ts does);
// runPackaged.mjs also sets VSCODE_E2E_TESTS (entry), VSCODE_E2E_DEV (extension under development),
// VSCODE_E2E_EXTENSIONS_DIR (installed extensions), VSCODE_E2E_SHOT (screenshot name), VSCODE_E2E_SETTINGS (user
// settings, JSON) and VSCODE_E2E_METRICS (file); scripts/screens.mjs also sets VSCODE_E2E_WORKSPACE (the folder to
// open) and VSCODE_E2E_AGENT_HOMES (a module whose agentHomes(root, dir, workspace) builds the agent stores).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { agentHomes } from './agentHomes.mjs';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
const hostDir = path.resolve(process.env.VSCODE_TEST_HOST ?? path.join(root, '.vscode-test/host'));
const serverMain = path.join(hostDir, 'node_modules/code-server/lib/vscode/out/server-main.js');
const testsEntry = path.resolve(process.env.VSCODE_E2E_TESTS ?? path.join(root, 'dist/test/integration/index.js'));
const devPath = path.resolve(process.env.VSCODE_E2E_DEV ?? root);
const extensionsDir = process.env.VSCODE_E2E_EXTENSIONS_DIR;
const workspace = path.resolve(process.env.VSCODE_E2E_WORKSPACE ?? path.join(root, 'test/integration/workspace'));
const shot = path.join(root, `test-results/${process.env.VSCODE_E2E_SHOT ?? 'integration'}.png`);
// A wait for something that will come (the server, a text, a frame) ends as soon as it does: the bound only matters
// when it never comes, so it is generous and scaled, never a guess at how fast this machine is today.
const WAIT_MS = 120_000 * Math.max(1, Number(process.env.CONTEXT_COMPACTOR_TEST_WAIT_SCALE) || 1);
const timeoutMs = Number(process.env.VSCODE_E2E_TIMEOUT_MS ?? 10 * WAIT_MS);

function fail(message) {
  console.error(`runInVsCode: ${message}`);
  process.exit(1);
}
// A fresh checkout installs the host on first use (idempotent, ~1 minute once), so `npm test` alone is enough.
if (!fs.existsSync(serverMain)) {
  const setup = spawnSync('bash', [path.join(root, 'scripts/setup-vscode-host.sh')], { stdio: 'inherit', env: { ...process.env, VSCODE_TEST_HOST: hostDir } });
  if (setup.status !== 0 || !fs.existsSync(serverMain)) fail(`no VS Code server at ${serverMain}; run: bash scripts/setup-vscode-host.sh`);
}
if (!fs.existsSync(testsEntry)) fail(`no ${path.relative(root, testsEntry)}; run: npm run build`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'context-compactor-e2e-'));
fs.mkdirSync(path.join(data, 'user/User'), { recursive: true });
// No trust prompt, no gallery look-ups, no welcome page: nothing that needs a network or a click.
fs.writeFileSync(path.join(data, 'user/User/settings.json'), JSON.stringify({
  'security.workspace.trust.enabled': false, 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
  'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'update.mode': 'none',
  // The fixture workspace lives inside this git repository; don't offer to open it.
  'git.openRepositoryInParentFolders': 'never',
  // runPackaged.mjs: settings of its own (JSON).
  ...JSON.parse(process.env.VSCODE_E2E_SETTINGS ?? '{}'),
}));
const resultFile = path.join(data, 'result.json');
const homes = process.env.VSCODE_E2E_AGENT_HOMES ? (await import(pathToFileURL(path.resolve(process.env.VSCODE_E2E_AGENT_HOMES)).href)).agentHomes : agentHomes;
const agentEnv = homes(root, data, workspace);
const server = spawn(process.execPath, [serverMain, '--host', '127.0.0.1', '--port', String(port), '--without-connection-token',
  '--accept-server-license-terms', '--telemetry-level', 'off', '--server-data-dir', path.join(data, 'server'),
  '--user-data-dir', path.join(data, 'user'), ...(extensionsDir ? ['--extensions-dir', extensionsDir] : [])], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...agentEnv, VSCODE_E2E_RESULT: resultFile } });
let log = '';
let hostExit = null;
let serverExit = null;
const onOut = (chunk) => {
  log += chunk;
  const m = /Extension Host Process exited with code: (\d+)/.exec(log);
  if (m) hostExit = Number(m[1]);
};
server.stdout.on('data', onOut);
server.stderr.on('data', onOut);
server.on('exit', (code) => { serverExit = code ?? -1; });

/**
 * Whether `text` is on the page, in the workbench or inside a webview. Webview content lives in nested iframes,
 * so look in every frame, not just the workbench.
 */
async function findOnPage(page, text, until) {
  for (let first = true; first || Date.now() < until; first = false) {
    for (const frame of page.frames()) {
      if (await frame.getByText(text, { exact: false }).count().catch(() => 0)) return true;
    }
    // Webviews fill their inner frame with document.write, which Playwright's frame list can miss; here every
    // webview frame is same-origin with the workbench, so also walk the iframes' documents from the top.
    if (await page.evaluate((t) => {
      const has = (doc) => (doc?.body?.innerText ?? '').includes(t)
        || [...(doc?.querySelectorAll('iframe') ?? [])].some((f) => { try { return has(f.contentDocument); } catch { return false; } });
      return has(document);
    }, text).catch(() => false)) return true;
    await page.waitForTimeout(500);
  }
  return false;
}

/**
 * Mid-suite screen checks (harness.ts `checkScreen`): the suite writes <result>.screen.json with texts and a
 * screenshot name, this answers with <result>.screen-done.json listing the texts not found on the page.
 */
async function answerScreenCheck(page) {
  const request = `${resultFile}.screen.json`;
  if (!fs.existsSync(request)) return;
  // Optional (screens): `hover`, a text to rest the pointer on first (tooltips, hovers); `selector`, a part of the
  // page to save instead of the whole page (the status bar); `pause`, ms to let an animation end before the picture;
  // `click`, a CSS selector to click first in whichever frame has it (a webview's tab); `scrollTo`, a text to scroll
  // into view (a section further down a preview).
  const { texts, shot: name, images = [], hover, selector, pause = 0, click, scrollTo } = JSON.parse(fs.readFileSync(request, 'utf8'));
  const failed = (what) => void fs.writeFileSync(`${resultFile}.screen-done.json`, JSON.stringify({ missing: [what] }));
  // One bound for the whole check (harness.ts waits for the answer a while longer).
  const until = Date.now() + WAIT_MS;
  if (click && !(await inFrames(page, { selector: click }, 'click', until))) return failed(`click ${click}`);
  if (scrollTo && !(await inFrames(page, { text: scrollTo }, 'scroll', until))) return failed(`scroll to ${scrollTo}`);
  fs.rmSync(request);
  const missing = [];
  for (const text of texts) {
    const found = await findOnPage(page, text, until);
    if (!found) missing.push(text);
  }
  for (const image of images) if (!(await imageShown(page, image, until))) missing.push(`image ${image}`);
  if (hover) {
    const target = page.getByText(hover, { exact: false }).first();
    if (await target.hover({ timeout: Math.max(5000, until - Date.now()) }).then(() => true, () => false)) await page.waitForTimeout(1500);
    else missing.push(`hover ${hover}`);
  }
  if (pause > 0) await page.waitForTimeout(pause);
  if (name) {
    const file = path.join(path.dirname(shot), `${name}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (selector) await page.locator(selector).first().screenshot({ path: file }).catch(() => { missing.push(`selector ${selector}`); });
    else await page.screenshot({ path: file });
  }
  fs.writeFileSync(`${resultFile}.screen-done.json`, JSON.stringify({ missing }));
}

/**
 * Clicks, or scrolls into view, the first element matching `selector` (CSS) or holding `text` in any frame, webviews'
 * nested documents included; false if there is none.
 */
async function inFrames(page, { selector, text }, action, until) {
  for (let first = true; first || Date.now() < until; first = false) {
    for (const frame of page.frames()) {
      const target = (selector ? frame.locator(selector) : frame.getByText(text, { exact: false })).first();
      if (!(await target.count().catch(() => 0))) continue;
      const timeout = Math.max(5000, until - Date.now());
      const done = action === 'click' ? target.click({ timeout }) : target.scrollIntoViewIfNeeded({ timeout });
      return done.then(() => true, () => false);
    }
    // As in findOnPage: a webview's inner document may be missing from Playwright's frame list; walk it from the top.
    const acted = await page.evaluate(({ selector: sel, text: t, action: a }) => {
      const own = (doc) => (sel ? doc.querySelector(sel) : [...doc.querySelectorAll('h1,h2,h3,h4,p,li,td,th,span,div')].find((e) => e.children.length === 0 && e.textContent.includes(t)));
      const find = (doc) => (doc && own(doc)) || [...(doc?.querySelectorAll('iframe') ?? [])].map((f) => { try { return find(f.contentDocument); } catch { return null; } }).find(Boolean);
      const el = find(document);
      if (el) a === 'click' ? el.click() : el.scrollIntoView({ block: 'start' });
      return Boolean(el);
    }, { selector, text, action }).catch(() => false);
    if (acted) return true;
    await page.waitForTimeout(500);
  }
  return false;
}

/** Whether some frame shows a loaded <img> whose alt text is `name` or whose src ends with it (webviews nest frames). */
async function imageShown(page, name, until) {
  const probe = (n) => {
    const loaded = (doc) => [...(doc?.images ?? [])].some((i) => (i.alt === n || i.src.endsWith(n)) && i.complete && i.naturalWidth > 0)
      || [...(doc?.querySelectorAll('iframe') ?? [])].some((f) => { try { return loaded(f.contentDocument); } catch { return false; } });
    return loaded(document);
  };
  for (let first = true; first || Date.now() < until; first = false) {
    for (const frame of page.frames()) if (await frame.evaluate(probe, name).catch(() => false)) return true;
    await page.waitForTimeout(500);
  }
  if (process.env.VSCODE_E2E_DEBUG_FRAMES) {
    for (const frame of page.frames()) console.log('imgs', await frame.evaluate(() => [...document.images].map((i) => [i.alt, i.src.slice(0, 100), i.naturalWidth])).catch((e) => String(e)));
  }
  return false;
}

let browser;
let verdict;
let uiFailures = [];
const pageErrors = [];
try {
  for (const until = Date.now() + WAIT_MS; Date.now() < until && !/Extension host agent started/.test(log) && serverExit === null; ) await sleep(100);
  if (!/Extension host agent started/.test(log)) throw new Error(`VS Code server did not start within ${WAIT_MS / 1000} s (exit ${serverExit}):\n${log}`);

  const authority = `127.0.0.1:${port}`;
  // The web workbench takes the extension under development and the test entry in its `payload` URL parameter.
  const payload = [['extensionDevelopmentPath', `vscode-remote://${authority}${devPath}`], ['extensionTestsPath', `vscode-remote://${authority}${testsEntry}`]];
  const url = `http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox',
    '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-default-apps'] });
  pageErrors.length = 0;
  // Clipboard permissions: "Copy resume command" is checked by reading the clipboard back.
  const browserContext = await browser.newContext({ viewport: { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await browserContext.newPage();
  // Webview errors (CSP, script failures) never reach the extension host; keep them for the report.
  page.on('console', (m) => { if (process.env.VSCODE_E2E_DEBUG_FRAMES) console.log('console', m.type(), m.text().slice(0, 200)); if (m.type() === 'error' && /webview|vscode-resource|Content Security|Refused/i.test(m.text())) pageErrors.push(m.text().slice(0, 300)); });
  if (process.env.VSCODE_E2E_DEBUG_FRAMES) page.on('response', (r) => { if (r.status() >= 400) console.log('http', r.status(), r.url().slice(0, 200)); });
  page.on('pageerror', (e) => pageErrors.push(String(e).slice(0, 300)));
  await page.goto(url);
  const deadline = Date.now() + timeoutMs;
  while (hostExit === null && !fs.existsSync(resultFile) && Date.now() < deadline) {
    await answerScreenCheck(page);
    await page.waitForTimeout(250);
  }
  if (fs.existsSync(resultFile)) {
    await page.waitForTimeout(300); // the entry writes the file in one call; let the page settle for the screenshot
    verdict = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    // Notifications are out of reach of the extension API; the suite names texts to look for on the page.
    // Webview content lives in nested iframes, so look in every frame, not just the workbench.
    // A short look first: a toast that hid itself is looked for in the notifications center, with the full bound.
    const onScreen = (text, ms) => findOnPage(page, text, Date.now() + ms);
    let centerOpen = false;
    for (const text of verdict.expectOnScreen ?? []) {
      let found = await onScreen(text, centerOpen ? WAIT_MS : 5000);
      // Toasts hide themselves 15-20 s after they appear, often before the suite ends; the notifications center
      // (the bell in the status bar) still lists them.
      if (!found && !centerOpen) {
        centerOpen = await page.locator('[id="status.notifications"]').click().then(() => true, () => false);
        found = await onScreen(text, WAIT_MS);
      }
      if (!found) uiFailures.push(`not on screen: ${JSON.stringify(text)}`);
    }
  }
  if (process.env.VSCODE_E2E_DEBUG_FRAMES) {
    for (const f of page.frames()) console.log('frame', f.url().slice(0, 160), (await f.evaluate(() => document.body?.innerText?.slice(0, 200)).catch((e) => String(e).slice(0, 100))));
  }
  fs.mkdirSync(path.dirname(shot), { recursive: true });
  await page.screenshot({ path: shot });
  // The test entry keeps the extension host (and with it the webviews' resource loading) alive until this file exists.
  fs.writeFileSync(`${resultFile}.seen`, '');
} finally {
  await browser?.close();
  server.kill();
  fs.rmSync(data, { recursive: true, force: true });
}

const hostLines = log.split('\n').filter((l) => /Extension Host|\berror\b/i.test(l)).slice(-20);
if (hostLines.length > 0) console.log(hostLines.join('\n'));
console.log(`screenshot: ${path.relative(process.cwd(), shot)}`);
if (!verdict) fail(`no verdict from the tests within ${timeoutMs} ms (host exit ${hostExit})`);
if (verdict.metrics && Object.keys(verdict.metrics).length > 0) {
  console.log(`metrics: ${JSON.stringify(verdict.metrics)}`);
  if (process.env.VSCODE_E2E_METRICS) fs.writeFileSync(process.env.VSCODE_E2E_METRICS, JSON.stringify(verdict.metrics));
}
for (const f of verdict.failures) console.error(`FAIL ${f.test}\n${f.error}\n`);
for (const f of uiFailures) console.error(`FAIL ${f}`);
if (uiFailures.length > 0 && pageErrors.length > 0) console.error(`page errors:\n${pageErrors.slice(0, 10).join('\n')}`);
console.log(`${verdict.passed} passed, ${verdict.failed + uiFailures.length} failed (integration, VS Code 1.100.3 server + Chromium)`);
process.exit(verdict.failed === 0 && uiFailures.length === 0 && verdict.passed > 0 ? 0 : 1);
