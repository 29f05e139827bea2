// The user's zone: --tz when given (checked), else TZ from the environment, else the machine's.
import type { Context } from '../context.js';
import { checkZone, machineZone } from './when.js';

export function userZone(ctx: Pick<Context, 'env'>, tz: string | undefined): string {
  if (tz !== undefined) return checkZone(tz);
  const env = ctx.env.TZ;
  if (env && !env.startsWith(':')) {
    try {
      return checkZone(env);
    } catch {
      // An odd TZ value: Intl already fell back to something sensible.
    }
  }
  return machineZone();
}
