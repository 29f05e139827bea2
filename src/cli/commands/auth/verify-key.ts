// The cheapest authenticated read the service has (one post result) tells whether a key works.
// 401 and 403 ADDON_REQUIRED become exit-3 errors that say how to fix them.
import { ApiError } from '../../../client/errors.js';
import { CliError, EXIT } from '../../cli-error.js';
import type { Context } from '../../context.js';
import { isLoopback } from '../../../config/base-url.js';

export const ROTATE_HINT = 'create or rotate a key in the workspace settings under Settings → Developers (a key suspected of leaking must be rotated)';
export const ADDON_HINT = 'buy the API add-on in Settings → Billing → Add-ons (5 USD/month or 50 USD/year); keys work once it is active';

export type KeyCheck = { valid: true } | { valid: false; error: unknown };

export async function checkKey(ctx: Context, apiKey: string, baseUrl: string): Promise<KeyCheck> {
  try {
    const client = await ctx.client({ apiKey, baseUrl });
    await client.results.list({ limit: 1 });
    return { valid: true };
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

/** A short description of any failure, for `auth status --json`. */
export function errorSummary(err: unknown): { code: string; message: string; status: number | null; requestId: string | null } {
  if (err instanceof ApiError) {
    return { code: err.code ?? err.kind.toUpperCase().replace(/-/g, '_'), message: err.message, status: err.status ?? null, requestId: err.requestId ?? null };
  }
  if (err instanceof CliError) return { code: err.code ?? 'ERROR', message: err.message, status: err.status ?? null, requestId: err.requestId ?? null };
  return { code: 'ERROR', message: err instanceof Error ? err.message : String(err), status: null, requestId: null };
}
