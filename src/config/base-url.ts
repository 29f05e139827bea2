// Base URLs as users type them: validated before anything is saved or sent.
import { isLoopbackHost } from '../wire/protocol.js';

/** Trailing slashes dropped, so that paths join cleanly and equal URLs compare equal. */
export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** Why a string cannot be a base URL, or undefined when it can. */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `"${url}" is not an http(s) URL`;
  if (parsed.username || parsed.password) return 'the base URL must not carry a user name or password';
  if (parsed.search || parsed.hash) return 'the base URL must not carry a query or fragment';
  const root = rootOfApiUrl(url);
  if (root !== undefined) return `"${url}" ends in an API path: the base URL is the service's root (${root}); socialpub adds /v1 and /api/v1 itself`;
  return undefined;
}

/**
 * The service's root when a URL was copied with an API path on its end (…/v1, …/api/v1), else
 * undefined: the requests would go to /v1/v1/posts and every one would be a 404.
 */
export function rootOfApiUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const path = /^(.*?)\/(?:api\/)?v1\/?$/.exec(parsed.pathname);
  return path ? `${parsed.origin}${path[1]}` : undefined;
}

/** Plain http to another machine sends the key in the clear; a warning is due. */
export function isInsecureRemote(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

/** A base URL on this machine only (127.0.0.0/8, ::1, localhost): a local sandbox, not the service. */
export function isLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
