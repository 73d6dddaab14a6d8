// Logger port backed by a LogOutputChannel, so lines honour "Developer: Set Log Level".
import * as vscode from 'vscode';
import { redactUrlCredentials } from '../core/summary/baseUrl.js';
import { logText } from '../core/text/notification.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(channel: vscode.LogOutputChannel, component: string): Logger {
  // A URL with user:password@ or ?key=… (a provider base URL in an error) never reaches the log as written, and a
  // message quoting a transcript stays one entry (logText).
  const tag = (message: string) => `[${component}] ${logText(redactUrlCredentials(message))}`;
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
