// `socialpub sandbox`: starts the local service, prints the ready line and banner, optionally
// writes a profile, then serves until Ctrl-C (exit 0).
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CliError, UsageError, EXIT } from '../../cli-error.js';
import { banner, readyLine, type SecretWhere } from './banner.js';
import { removeStaleKeyFiles, writeKeyFile } from './key-file.js';
import { formatCount } from '../../../output/time.js';
import { startSandbox, SandboxOptionError, StateFileError } from '../../../sandbox/index.js';
import { DEFAULT_PROFILE_NAME as DEFAULT_SANDBOX_PROFILE, planSandbox } from './flags.js';
import { isLoopback } from '../../../config/base-url.js';
import { saveKey } from '../../../config/credentials.js';
import { writeAtomically } from '../../../config/save-file.js';
import { removeWebhookSecretFile, webhookSecretFile } from '../../../config/webhook-secret-file.js';
import type { SandboxFlags } from './index.js';

export async function runSandbox(ctx: Context, flags: SandboxFlags): Promise<number> {
  const plan = planSandbox(flags, ctx.env);
  const out = ctx.output();
  if (plan.secret.warning) out.warn(plan.secret.warning);
  const json = out.structured;
  if ((plan.options.fixtures ?? 0) >= 100_000) out.info(`loading ${formatCount(plan.options.fixtures!)} fixture results…`);
  if (plan.profile) {
    // The sandbox's throwaway key must not replace a key for a real service under the same name.
    const existing = (await ctx.config()).get(plan.profile);
    if (existing?.baseUrl && !isLoopback(existing.baseUrl)) {
      throw new UsageError(`--write-profile: profile "${plan.profile}" points to ${existing.baseUrl}, not to a local sandbox; it was left as it is and the sandbox was not started`, [
        `name another profile: --write-profile ${plan.profile === DEFAULT_SANDBOX_PROFILE ? 'sandbox-local' : DEFAULT_SANDBOX_PROFILE}`,
      ]);
    }
  }
  let sandbox;
  try {
    sandbox = await startSandbox(plan.options);
  } catch (err) {
    if (err instanceof SandboxOptionError) throw new CliError(err.message, { exitCode: /in use|address|permission/.test(err.message) ? EXIT.error : EXIT.usage });
    // A damaged, linked or locked data file: nothing the user typed was wrong (exit 1, as a port in use).
    if (err instanceof StateFileError) throw new CliError(err.message, { exitCode: EXIT.error });
    throw err;
  }
  const sb = sandbox;
  ctx.onExit(() => sb.close());
  for (const notice of sb.notices) out.warn(notice);

  let profileNote: string | undefined;
  let secretFile: string | undefined;
  if (plan.profile) {
    const demo = sb.workspaces.find((w) => w.name === 'demo');
    if (!demo) throw new UsageError('--write-profile: this sandbox has no demo workspace');
    const store = await ctx.config();
    const current = store.current();
    // Preferences stay; a key an earlier login kept in the system credential store is removed
    // from there (the profile would no longer point to it). The sandbox key goes in the file.
    await saveKey(store, store.keyring, plan.profile, demo.apiKey, { insecureStorage: true, change: (p) => ({ ...p, baseUrl: sb.url }) });
    // With no current profile, commands would look for "default" and find no key.
    if (current === undefined) await store.use(plan.profile);
    profileNote = current === undefined ? `"${plan.profile}" is now the current profile.` : current === plan.profile ? undefined : `The current profile is still "${current}"; switch with: socialpub profile use ${plan.profile}`;
    // The secret the sandbox made is printed masked only: saved beside the profiles (0600, in the
    // 0700 folder) for `socialpub listen --secret-file`. One the user gave is theirs already.
    if (plan.secret.source === undefined) {
      secretFile = webhookSecretFile(store.dir, plan.profile);
      await writeAtomically(secretFile, `${sb.webhookSecret}\n`);
    } else if (!(plan.secret.source === 'file' && resolve(flags.webhookSecretFile!) === resolve(webhookSecretFile(store.dir, plan.profile)))) {
      // A secret an earlier run generated signs nothing now: `listen --secret-file` with it would
      // refuse every delivery. Unless it is the very file given, it goes.
      const stale = removeWebhookSecretFile(store.dir, plan.profile);
      if (stale) out.info(`removed ${stale}: the secret an earlier sandbox generated (this one signs with yours)`);
    }
  }
  const file = secretFile ?? (plan.secret.source === 'file' ? flags.webhookSecretFile : undefined);
  const secret: SecretWhere = file !== undefined ? { source: 'file', file } : { source: plan.secret.source === 'env' || plan.secret.source === 'flag' ? plan.secret.source : 'generated' };
  // Without a profile or the ready line, the banner's login line reads the demo key from a file.
  const demo = sb.workspaces.find((w) => w.addon);
  // A login line copied from a sandbox killed with kill -9 would read a key nothing answers to.
  for (const stale of removeStaleKeyFiles()) out.info(`removed ${stale.path}: the key file of a sandbox that is no longer running (pid ${stale.pid}, killed or crashed); its key works nowhere now`);
  const keyFile = !plan.profile && !json && demo && isLoopback(sb.url) ? writeKeyFile(demo.apiKey) : undefined;
  if (keyFile) ctx.onExit(() => keyFile.remove());
  if (json) await out.data(readyLine(sb));
  if (profileNote) out.info(profileNote);
  out.info(banner({ sandbox: sb, options: plan.options, profile: plan.profile, json, colors: out.colors, secret, ...(keyFile ? { keyFile: keyFile.path } : {}) }));

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  keyFile?.remove();
  out.info('sandbox stopped');
  return EXIT.ok;
}
