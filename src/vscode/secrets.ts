// Provider API keys in SecretStorage (OS keychain), plus the Set/Clear API key commands. Keys never reach settings or logs.
import * as vscode from 'vscode';
import { CommandIds } from './commandIds.js';
import type { Logger } from './log.js';
import { keyedProviders, settingsSection, type KeyedProvider, type SummaryProvider } from './settingKeys.js';
import { showInfo } from './notify.js';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  private static key(provider: KeyedProvider): string {
    return `contextCompactor.apiKey.${provider}`;
  }

  get(provider: KeyedProvider): Thenable<string | undefined> {
    return this.secrets.get(ApiKeyStore.key(provider));
  }

  set(provider: KeyedProvider, value: string): Thenable<void> {
    return this.secrets.store(ApiKeyStore.key(provider), value);
  }

  clear(provider: KeyedProvider): Thenable<void> {
    return this.secrets.delete(ApiKeyStore.key(provider));
  }
}

function isKeyedProvider(value: unknown): value is KeyedProvider {
  return keyedProviders.includes(value as KeyedProvider);
}

/** The provider named by a command argument, else the configured one, else the user's pick. */
async function pickProvider(arg: unknown, configured: SummaryProvider, verb: string): Promise<KeyedProvider | undefined> {
  if (isKeyedProvider(arg)) return arg;
  const items = keyedProviders.map((p) => ({ label: p, description: p === configured ? 'configured' : undefined }));
  items.sort((a, b) => Number(b.label === configured) - Number(a.label === configured));
  const picked = await vscode.window.showQuickPick(items, { title: `${verb} API key`, placeHolder: 'Summary provider' });
  return picked?.label;
}

export function registerApiKeyCommands(store: ApiKeyStore, configuredProvider: () => SummaryProvider, log: Logger): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.setApiKey, async (arg?: unknown) => {
      const provider = await pickProvider(arg, configuredProvider(), 'Set');
      if (provider === undefined) return false;
      const value = await vscode.window.showInputBox({
        title: `API key for ${provider}`,
        prompt: 'Stored in VS Code secret storage, never in settings.',
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' ? 'Enter a key, or press Escape to cancel.' : undefined),
      });
      if (value === undefined) return false;
      await store.set(provider, value.trim());
      log.info(`API key stored for ${provider}`);
      // A key with no provider set would change nothing: the user meant "use this provider" (user settings).
      const chosen = configuredProvider() === 'none';
      if (chosen) await vscode.workspace.getConfiguration(settingsSection).update('summary.provider', provider, vscode.ConfigurationTarget.Global);
      void showInfo(`Context Compactor: API key for ${provider} stored${chosen ? `; summaries now use ${provider} (contextCompactor.summary.provider)` : ''}.`);
      return true;
    }),
    vscode.commands.registerCommand(CommandIds.clearApiKey, async (arg?: unknown) => {
      const provider = await pickProvider(arg, configuredProvider(), 'Clear');
      if (provider === undefined) return false;
      await store.clear(provider);
      log.info(`API key cleared for ${provider}`);
      void showInfo(`Context Compactor: API key for ${provider} cleared.`);
      return true;
    }),
  );
}
