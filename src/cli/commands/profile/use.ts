// `socialpub profile use <name>`: make a saved profile the current one.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function registerUse(profile: Command, ctx: Context): void {
  profile
    .command('use')
    .argument('<name>', 'a saved profile')
    .summary('make a profile the current one')
    .description(
      'Make a saved profile the current one: later runs use it unless --profile or SOCIALPUB_PROFILE says otherwise. Exits 4 when there is no such profile (create one with `socialpub auth login --profile NAME`).',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile use acme
  socialpub profile use sandbox && socialpub posts list`,
    )
    .action(action(ctx, (name: string) => use(ctx, name)));
}

export async function use(ctx: Context, name: string): Promise<number> {
  const store = await ctx.config();
  const saved = store.get(name);
  if (!saved) throw (await import('./not-found.js')).profileNotFound(name, store);
  await store.use(name);
  const out = ctx.output();
  out.info(`Now using profile ${name}${saved.baseUrl ? ` (${saved.baseUrl})` : ''}`);
  const envProfile = ctx.env.SOCIALPUB_PROFILE?.trim();
  if (envProfile && envProfile !== name) out.warn(`SOCIALPUB_PROFILE=${envProfile} is set in this environment and wins over the current profile while it is set`);
  return 0;
}
