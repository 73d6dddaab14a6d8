// Reads the contextCompactor.* settings into one validated snapshot (no global config state).
import * as vscode from 'vscode';
import { settingDefaults, settingsSection, summaryProviders, type SettingKey, type Settings } from './settingKeys.js';

function sameKind(value: unknown, fallback: unknown): boolean {
  if (Array.isArray(fallback)) return Array.isArray(value);
  if (typeof fallback === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === typeof fallback;
}

/** A value of the wrong type (hand-edited settings.json) falls back to the default instead of failing later. */
export function readSettings(config = vscode.workspace.getConfiguration(settingsSection)): Settings {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(settingDefaults) as SettingKey[]) {
    const value = config.get<unknown>(key);
    out[key] = sameKind(value, settingDefaults[key]) ? value : settingDefaults[key];
  }
  if (!summaryProviders.includes(out['summary.provider'] as never)) out['summary.provider'] = 'none';
  return out as Settings;
}
