// The contextCompactor.* settings and their defaults; package.json must declare exactly these (checked by tests).
export const summaryProviders = ['none', 'anthropic', 'openai', 'openai-compatible'] as const;
export type SummaryProvider = (typeof summaryProviders)[number];

/** Providers that need an API key (everything but "none"). */
export type KeyedProvider = Exclude<SummaryProvider, 'none'>;
export const keyedProviders = summaryProviders.filter((p): p is KeyedProvider => p !== 'none');

export const settingDefaults = {
  'summary.provider': 'none' as SummaryProvider,
  'summary.model': '',
  'summary.baseUrl': '',
  'summary.maxOutputTokens': 4096,
  'summary.timeoutSeconds': 120,
  'cleanup.keepRecentTurns': 6,
  'cleanup.keepRecentTokens': 0,
  'cleanup.keepRecentResultTokens': 0,
  'cleanup.rules': {} as Readonly<Record<string, boolean | Readonly<Record<string, unknown>>>>,
  sessionRoots: [] as readonly string[],
  contextThreshold: 150000,
  statusBar: true,
} as const;

export type SettingKey = keyof typeof settingDefaults;
export type Settings = { readonly [K in SettingKey]: (typeof settingDefaults)[K] };

export const settingsSection = 'contextCompactor';
