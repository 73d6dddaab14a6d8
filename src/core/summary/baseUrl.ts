// Provider base URLs: checked before any request, and never shown with the credentials they may carry.

const REDACTED = '[REDACTED]';
// userinfo of any URL in a text: scheme://user:password@ (or scheme://token@).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
// Query parameters that carry credentials by convention (?key=, &api_key=, &access_token=, &sig=, …).
const CREDENTIAL_PARAM = /([?&;](?:[a-z0-9_-]*(?:key|token|secret|password|passwd|pwd|auth|signature|credential)[a-z0-9_-]*|sig|code)=)[^&#\s]*/gi;

/** Replaces the userinfo and the credential-looking query values of every URL in text. */
export function redactUrlCredentials(text: string): string {
  return text.replace(USERINFO, `$1${REDACTED}@`).replace(CREDENTIAL_PARAM, `$1${REDACTED}`);
}

// A DNS host name: dot-separated labels of letters, digits and inner hyphens (underscores seen in private DNS).
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/i;

// Everything before the last '@' of a base URL that is not a valid http(s) URL, after any `scheme://`: typed without a
// scheme (`user:pw@host` parses as the scheme "user:") or with a '/', '?', '#' or space in the password, the
// URL-shaped rule above cannot tell where the userinfo ends, so all of it may be credentials.
const UP_TO_LAST_AT = /^(\s*(?:[a-z][a-z0-9+.-]*:\/\/)?)[\s\S]*@/i;

/** A base URL that did not parse as http(s), as it may be shown: anything that may be credentials removed. */
function shownBaseUrl(raw: string): string {
  return redactUrlCredentials(raw.trim()).replace(UP_TO_LAST_AT, `$1${REDACTED}@`);
}

export type BaseUrlCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

/**
 * A base URL a request can succeed against: http(s), a well-formed host, no userinfo (fetch refuses URLs with
 * credentials, and keys belong in the key setting, not in a URL that ends up in logs). Reasons name the URL
 * only with its credentials removed.
 */
export function checkBaseUrl(raw: string): BaseUrlCheck {
  const shown = shownBaseUrl(raw);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: `the base URL ${shown} is not a valid URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `the base URL ${shown} is not http(s)` };
  if (url.username || url.password) {
    // Shown up to the last '@' as typed: with a '#' or '@' in the password the parser's own userinfo ends too early.
    return { ok: false, reason: `the base URL ${shown} carries credentials (user:password@); give the key as the API key instead` };
  }
  const host = url.hostname;
  const ipv6 = host.startsWith('[');
  if (!ipv6 && (host.length > 253 || !host.replace(/\.$/, '').split('.').every((l) => LABEL.test(l)))) {
    return { ok: false, reason: `the base URL ${redactUrlCredentials(raw.trim())} has a malformed host name` };
  }
  return { ok: true, url };
}

/** Whether an OpenAI key may go to this base URL: only to OpenAI's own API over https. */
export function isOpenAIHost(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname.toLowerCase() === 'api.openai.com';
}
