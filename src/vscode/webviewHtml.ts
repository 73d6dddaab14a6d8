// The webview's HTML shell and CSP; no vscode import, so the Chromium test serves the very same page.
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlInput {
  /** `webview.cspSource`: the origin the webview may load dist/ and media/ files from. */
  readonly cspSource: string;
  /** Fresh for every load: a script that was not in this HTML has no way to know it. */
  readonly nonce: string;
  /** `asWebviewUri` of dist/webview.js and media/composition.css. */
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly title: string;
}

export function createNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page is an empty shell: everything visible is built by dist/webview.js from typed messages. */
export function webviewHtml(input: WebviewHtmlInput): string {
  const nonce = escapeAttr(input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${escapeAttr(input.styleUri)}">
<title>${escapeAttr(input.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"></main>
<script nonce="${nonce}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>
`;
}
