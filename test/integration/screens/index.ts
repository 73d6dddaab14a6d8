// extensionTestsPath entry of `npm run screens`: walks SCREENS and asks the runner for <theme>-<name>.png beside its
// own last screenshot (test-results/screens/, as scripts/screens.mjs names it).
import * as vscode from 'vscode';
import { finish } from '../finish.js';
import { checkScreen, runAll, test } from '../harness.js';
import { SCREENS } from './screens.js';

const theme = process.env['SCREENS_THEME'] ?? 'light';
const only = (process.env['SCREENS_ONLY'] ?? '').split(',').filter(Boolean);

for (const screen of SCREENS.filter((s) => only.length === 0 || only.includes(s.name))) {
  test(screen.name, async () => {
    try {
      const { texts = [], crop, ...view } = await screen.show();
      // A webview may take seconds to draw on a loaded machine: look again a few times before the picture counts.
      let missing: string[] | undefined;
      for (let i = 0; i < 3 && (missing === undefined || missing.length > 0); i++) {
        missing = await checkScreen(texts, `${theme}-${screen.name}`, 60_000, [], view);
        if (missing === undefined) throw new Error('no runner answers screen requests (run it with npm run screens)');
      }
      if (missing && missing.length > 0) throw new Error(`not on screen: ${missing.join(', ')} (test-results/screens/${theme}-${screen.name}.png)`);
      if (crop) {
        const lost = await checkScreen([], `${theme}-${screen.name}-crop`, 60_000, [], { ...view, selector: crop, pause: 0 });
        if (lost && lost.length > 0) throw new Error(`cannot crop: ${lost.join(', ')}`);
      }
    } finally {
      await screen.done?.();
    }
  });
}

/** VS Code's own theme names for scripts/screens.mjs's two themes. */
const THEME_NAMES: Record<string, string> = { light: 'Default Light Modern', dark: 'Default Dark Modern' };

export async function run(): Promise<void> {
  // The server's user settings.json does not reach the web workbench's window settings (the "dark" pictures came out
  // light): the theme is set from inside, before the first screen.
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', THEME_NAMES[theme] ?? THEME_NAMES.light, vscode.ConfigurationTarget.Global);
  // A remote window takes the theme from the browser's own settings: the workbench's toggle writes those.
  if (theme === 'dark' && vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Light) await vscode.commands.executeCommand('workbench.action.toggleLightDarkThemes');
  // `--keep-turns N`: the recent part the Cleanup tab and the compact screens start from (the user's setting).
  const keep = Number(process.env['SCREENS_KEEP_TURNS']);
  if (keep > 0) await vscode.workspace.getConfiguration('contextCompactor.cleanup').update('keepRecentTurns', keep, vscode.ConfigurationTarget.Global);
  await finish(await runAll(300_000));
}
