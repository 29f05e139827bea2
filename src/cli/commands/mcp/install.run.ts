// `mcp install`, run: flags judged first (nothing is read or written on a bad one), then the
// change planned, printed (--dry-run) or made.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CliError, EXIT } from '../../cli-error.js';
import { choice } from '../../flags/choice.js';
import { flagError } from '../../flags/text.js';
import { CLIENT_INFO, CLIENTS, type Scope } from '../../../mcp/install/clients.js';
import { SERVER_NAME } from '../../../mcp/install/merge.js';
import { applyInstall, ConfigFileError, planInstall } from '../../../mcp/install/apply.js';
import type { McpInstallFlags } from './install.js';

export async function runMcpInstall(ctx: Context, opts: McpInstallFlags): Promise<number> {
  const client = choice('--client', opts.client, CLIENTS, { noun: 'client', listLabel: 'clients' });
  const info = CLIENT_INFO[client];
  const scope: Scope = opts.scope === undefined ? info.defaultScope : choice('--scope', opts.scope, info.scopes, { noun: `scope for ${client}`, listLabel: 'scopes' });
  const name = opts.name ?? 'socialpub';
  if (!SERVER_NAME.test(name)) throw flagError('--name', `"${name}" is not a server name this writes`, ['use letters, digits, - and _ (up to 64)']);
  if (opts.readOnly && opts.draftsOnly) throw flagError('--drafts-only', 'and --read-only together: --read-only already allows no drafts', ['choose one']);
  const profile = ctx.globals.profile;
  const places = {
    home: ctx.env.HOME ?? ctx.env.USERPROFILE ?? homedir(),
    projectDir: resolve(opts.projectDir ?? '.'),
    platform: process.platform,
    ...(ctx.env.APPDATA ? { appData: ctx.env.APPDATA } : {}),
    ...(ctx.env.XDG_CONFIG_HOME ? { xdgConfig: ctx.env.XDG_CONFIG_HOME } : {}),
    ...(ctx.env.CODEX_HOME ? { codexHome: ctx.env.CODEX_HOME } : {}),
  };
  let plan;
  try {
    plan = await planInstall(client, scope, name, places, {
      ...(profile ? { profile } : {}),
      readOnly: Boolean(opts.readOnly),
      draftsOnly: Boolean(opts.draftsOnly),
      mediaDirs: (opts.mediaDir ?? []).map((d) => resolve(d)),
    });
  } catch (err) {
    if (err instanceof ConfigFileError) throw new CliError(err.message, { exitCode: EXIT.error, code: 'CONFIG_FILE_MALFORMED', hints: [`a copy of the entry to add by hand: socialpub mcp install --client ${client} --dry-run`] });
    throw err;
  }
  const dryRun = Boolean(opts.dryRun);
  const backup = dryRun ? undefined : await applyInstall(plan, ctx.clock.now());
  const view = { client, scope, file: plan.file, name, action: plan.action, dryRun, backup: backup ?? null, entry: plan.entry, ...(dryRun ? { text: plan.text } : {}) };
  const out = ctx.output();
  await out.object(view, () => {
    if (dryRun) return `${plan.file} would ${plan.action === 'unchanged' ? 'stay as it is' : `become (${plan.action === 'added' ? 'adding' : 'replacing'} ${name}):`}\n${plan.action === 'unchanged' ? '' : plan.text}`;
    if (plan.action === 'unchanged') return `${info.label} already has ${name} in ${plan.file}: nothing changed`;
    return `${plan.action === 'added' ? 'Added' : 'Replaced'} ${name} in ${info.label}'s ${plan.file}${backup ? ` (the old file is in ${backup})` : ''}. Restart ${info.label} (or reload its MCP servers) to use it.`;
  });
  return EXIT.ok;
}
