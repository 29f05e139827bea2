// Keeps secrets out of anything printed: the API key, Authorization values, `whsec_` webhook
// secrets, URL credentials and key-like query or JSON fields. Two strengths:
// - redact(): our own trace and `api --dry-run`, which may also mask key-like fields by name;
// - maskEchoed()/maskEchoedValue(): whatever a server sent, masked for the key in use, `whsec_`
//   secrets and URL credentials only, so ordinary content stays as it was: a post may say
//   "Bearer of good news", "secret: SPRING25" or link to a page with `?token=…`.

/** `…last4` for a long secret (as maskKey shows keys); short ones are hidden entirely. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `…${secret.slice(-4)}` : '***';
}

const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/=-]+)/gi;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9+/=_-]+/g;
// scheme://user:pass@host: the userinfo goes, the rest of the URL stays readable.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
// api_key=…, "apiKey": "…", token=…, secret: … (query strings, JSON, header dumps).
const KEY_FIELD = /((?:api[_-]?key|access[_-]?token|token|secret|password)["']?\s*[:=]\s*["']?)([^\s"'&,;}]+)/gi;

/** The secrets a client holds: the key and the password of a base URL (`http://user:pass@…`). */
export function secretsOf(apiKey: string | undefined, baseUrl?: string): string[] {
  const out = apiKey ? [apiKey] : [];
  try {
    const password = baseUrl ? new URL(baseUrl).password : '';
    if (password) out.push(password, safeDecode(password));
  } catch {
    // Not a URL: nothing to take from it.
  }
  return [...new Set(out)];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Masks the key in use, any `whsec_` secret and URL credentials. */
export function maskEchoed(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
  }
  // Cheap checks first: this runs on every string of every response.
  if (out.includes('whsec_')) out = out.replace(WEBHOOK_SECRET, 'whsec_***');
  if (out.includes('@') && out.includes('://')) out = out.replace(URL_CREDENTIALS, '$1***@');
  return out;
}

/**
 * Whether a raw body can hold anything maskEchoed() would change, read off the raw text: a page
 * of results full of `https://…/@handle` links needs no walk. JSON can spell any character as
 * \uXXXX and a slash as \/, so a body with either always counts; other escapes (\n, \", \\) stay
 * inside what the patterns match, and a secret is looked for as written and as JSON escapes it.
 */
export function mayHoldEchoes(text: string, secrets: ReadonlyArray<string | undefined> = []): boolean {
  if (text.includes('\\u') || text.includes('\\/') || text.includes('whsec_')) return true;
  if (text.includes('://') && text.search(URL_CREDENTIALS) !== -1) return true;
  return secrets.some((secret) => secret !== undefined && secret.length >= 4 && (text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1))));
}

/** maskEchoed() over every string (and object key) of a parsed JSON value; returns a copy. */
export function maskEchoedValue<T>(value: T, secrets: ReadonlyArray<string | undefined> = []): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return maskEchoed(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[maskEchoed(k, secrets)] = walk(item);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** A URL for display: without `user:pass@`. */
export function displayUrl(url: string): string {
  return url.replace(URL_CREDENTIALS, '$1');
}

export function redact(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = maskEchoed(text, secrets);
  // Our own trace and dry run show Authorization values: any Bearer token there is a credential.
  if (/bearer/i.test(out)) out = out.replace(BEARER, (_m, prefix: string, token: string) => (token.startsWith('…') || token === '***' ? prefix + token : prefix + maskSecret(token)));
  out = out.replace(KEY_FIELD, (_m, prefix: string, value: string) => (value.startsWith('…') || value === '***' ? prefix + value : prefix + maskSecret(value)));
  return out;
}

/** Header values with Authorization masked and every other value passed through redact(). */
export function redactHeaders(headers: Record<string, string>, secrets: ReadonlyArray<string | undefined> = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization') {
      const m = /^(\S+)\s+(.+)$/.exec(value);
      out[name] = m ? `${m[1]} ${maskSecret(m[2]!)}` : maskSecret(value);
    } else {
      out[name] = redact(value, secrets);
    }
  }
  return out;
}
