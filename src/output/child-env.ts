// The environment of a program we start for the user (the pager, the browser command): ours,
// without our secrets. Neither needs the API key or the webhook secret, and everything they
// start in turn (a shell from less, a browser's helpers) would inherit them.
type Env = Readonly<Record<string, string | undefined>>;

const SECRET_VARIABLES = ['SOCIALPUB_API_KEY', 'SOCIALPUB_WEBHOOK_SECRET'];

export function childEnv(env: Env, extra: Env = {}): NodeJS.ProcessEnv {
  const result: Record<string, string | undefined> = { ...env, ...extra };
  for (const name of SECRET_VARIABLES) delete result[name];
  return result;
}
