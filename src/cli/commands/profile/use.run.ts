// `profile use`, run.
import type { Context } from '../../context.js';
import { profileNotFound } from './not-found.js';

export async function use(ctx: Context, name: string): Promise<number> {
  const store = await ctx.config();
  const saved = store.get(name);
  if (!saved) throw profileNotFound(name, store);
  await store.use(name);
  const out = ctx.output();
  out.info(`Now using profile ${name}${saved.baseUrl ? ` (${saved.baseUrl})` : ''}`);
  const envProfile = ctx.env.SOCIALPUB_PROFILE?.trim();
  if (envProfile && envProfile !== name) out.warn(`SOCIALPUB_PROFILE=${envProfile} is set in this environment and wins over the current profile while it is set`);
  return 0;
}
