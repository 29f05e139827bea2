// The cheapest authenticated read the service has (one post result; one post in SyncPostly's API,
// whose result rows need its accounts to read) tells whether a key works. Without a known API,
// login tells the two apart with the same kind of read (detect-api.ts).
// 401 and 403 ADDON_REQUIRED become exit-3 errors that say how to fix them.
import { ApiError } from '../../../client/errors.js';
import { CliError, EXIT } from '../../cli-error.js';
import type { Context } from '../../context.js';
import { isLoopback } from '../../../config/base-url.js';
import type { Dialect } from '../../../wire/dialects.js';
import { SP_PATHS } from '../../../wire/syncpostly/assumptions.js';
import { detectApi } from './detect-api.js';

export const ROTATE_HINT = 'create or rotate a key in the workspace settings under Settings → Developers (a key suspected of leaking must be rotated)';
export const ADDON_HINT = 'buy the API add-on in Settings → Billing → Add-ons (5 USD/month or 50 USD/year); keys work once it is active';

export type KeyCheck = { valid: true; api: Dialect } | { valid: false; error: unknown };

/** `api` undefined: told apart by the check itself (login without --api). */
export async function checkKey(ctx: Context, apiKey: string, baseUrl: string, api: Dialect | undefined): Promise<KeyCheck> {
  try {
    const client = await ctx.client({ apiKey, baseUrl, dialect: api ?? 'socialpub' });
    if (api === undefined) return { valid: true, api: await detectApi(client, (line) => ctx.debug(line)) };
    if (api === 'syncpostly') await client.request({ method: 'GET', path: SP_PATHS.posts, query: { limit: 1 } });
    else await client.results.list({ limit: 1 });
    return { valid: true, api };
  } catch (error) {
    return { valid: false, error };
  }
}

/** A refused key as an exit-3 error with the fix, or undefined when the failure was something else. */
export function keyRefusal(err: unknown, situation: { baseUrl: string; login: boolean; hints?: string[] }): CliError | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const tail = situation.login ? '; nothing was saved' : '';
  const from = { status: err.status, requestId: err.requestId };
  if (err.kind === 'auth') {
    return new CliError(`${situation.baseUrl} refused the key (${err.status ?? 401} ${err.code ?? 'UNAUTHORIZED'})${tail}`, {
      exitCode: EXIT.auth,
      code: err.code ?? 'UNAUTHORIZED',
      ...from,
      hints: [
        ...(isLoopback(situation.baseUrl)
          ? [
              `${situation.baseUrl} is a local sandbox: its keys are new on every start (unless --seed or --data); \`socialpub sandbox --write-profile\` saves its demo key as profile "sandbox" (then use --profile sandbox); without it, its banner prints the login line to copy`,
            ]
          : ['check that the whole key was copied, and that it belongs to a workspace of this service', ROTATE_HINT]),
        ...(situation.hints ?? []),
      ],
    });
  }
  if (err.kind === 'addon-required') {
    return new CliError(`the workspace of this key has no active API add-on (${err.status ?? 403} ${err.code ?? 'ADDON_REQUIRED'})${tail}`, {
      exitCode: EXIT.auth,
      code: err.code ?? 'ADDON_REQUIRED',
      ...from,
      hints: [ADDON_HINT, ...(situation.hints ?? [])],
    });
  }
  return undefined;
}

export interface ErrorSummary {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
  /** The fixes the error's human form gives as hints. */
  hints: string[];
}

/** A short description of any failure, for `auth status --json`, with the hints printed beside it. */
export function errorSummary(err: unknown, hints: string[]): ErrorSummary {
  if (err instanceof ApiError) {
    return { code: err.code ?? err.kind.toUpperCase().replace(/-/g, '_'), message: err.message, status: err.status ?? null, requestId: err.requestId ?? null, hints };
  }
  if (err instanceof CliError) return { code: err.code ?? 'ERROR', message: err.message, status: err.status ?? null, requestId: err.requestId ?? null, hints };
  return { code: 'ERROR', message: err instanceof Error ? err.message : String(err), status: null, requestId: null, hints };
}
