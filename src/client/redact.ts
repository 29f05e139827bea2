// Keeps secrets out of anything printed: the API key, Authorization values, `whsec_` webhook
// secrets and key-like query or JSON fields. Used by the debug trace and by `api --dry-run`.

/** `…last4` for a long secret (as maskKey shows keys); short ones are hidden entirely. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `…${secret.slice(-4)}` : '***';
}

const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/=-]+)/gi;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9+/=_-]+/g;
// api_key=…, "apiKey": "…", token=…, secret: … (query strings, JSON, header dumps).
const KEY_FIELD = /((?:api[_-]?key|access[_-]?token|token|secret|password)["']?\s*[:=]\s*["']?)([^\s"'&,;}]+)/gi;

export function redact(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(maskSecret(secret));
  }
  out = out.replace(BEARER, (_m, prefix: string, token: string) => prefix + maskSecret(token));
  out = out.replace(WEBHOOK_SECRET, 'whsec_***');
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
