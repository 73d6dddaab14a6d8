// Logger port backed by a LogOutputChannel, so lines honour "Developer: Set Log Level".
import * as vscode from 'vscode';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(channel: vscode.LogOutputChannel, component: string): Logger {
  const tag = (message: string) => `[${component}] ${message}`;
  return {
    info: (message) => channel.info(tag(message)),
    warn: (message) => channel.warn(tag(message)),
    error: (message) => channel.error(tag(message)),
  };
}

/** One line for the user: the message of an Error, never its stack. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
