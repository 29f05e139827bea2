// Secrets in what an assistant asks to publish are refused, not masked. Masking on the way out
// would change the text an assistant reads back (`whsec_***`, `https://***@host`), and a
// get-then-update would store that damage on the service; refusing keeps every stored text
// exactly as written and keeps a leaked secret from being published. The shapes are the ones the
// redactor masks in whatever a server sends: the profile's key, `whsec_` signing secrets, and
// credentials written into a URL (`user:pass@` or `user@` before the host), masked forms included.
import { FieldInputError } from '../wire/invalid-input.js';

const URL_USERINFO = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@"'<>]+@/i;

/** What kind of secret the text holds, or undefined. */
export function secretIn(text: string, keys: readonly string[]): string | undefined {
  if (keys.some((key) => key.length >= 8 && text.includes(key))) return 'the API key of this profile';
  if (text.includes('whsec_')) return 'a webhook signing secret (whsec_…)';
  if (text.includes('://') && URL_USERINFO.test(text)) return 'credentials in a URL (user:password@ before the host)';
  return undefined;
}

/** Every string in the arguments, by path (`text`, `text_for.bluesky`, `media[0]`). */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path || '(arguments)', value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, path ? `${path}.${k}` : k);
}

/** Throws invalid_input naming the first argument that holds a secret; nothing is sent. */
export function refuseSecrets(args: Record<string, unknown>, keys: readonly string[]): void {
  for (const [field, text] of strings(args, '')) {
    const what = secretIn(text, keys);
    if (what) {
      throw new FieldInputError(field, `${field}: contains ${what}; nothing was sent`, 'remove it: a secret must never be published, and the server will not store one (nor a masked one, as whsec_*** or ***@, read back from a post)');
    }
  }
}
