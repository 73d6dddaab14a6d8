// Every notification goes through here: its text may quote a transcript (file names, recorded folders, errors), so
// it is made unable to form a command link (core/text/notification.ts) before VS Code renders it.
import * as vscode from 'vscode';
import { notificationText } from '../core/text/notification.js';

export function showInfo<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(notificationText(message), ...items);
}

export function showWarning<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(notificationText(message), ...items);
}

export function showError<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(notificationText(message), ...items);
}

/** A question that waits for an answer (a modal dialog): for choices that spend money or time. Cancel is VS Code's own. */
export function askModal<T extends string>(message: string, detail: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(notificationText(message), { modal: true, detail: notificationText(detail) }, ...items);
}
