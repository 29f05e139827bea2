// What `socialpub sandbox` prints: the ready line for scripts (stdout, full keys and secret) and
// the banner for people (stderr, every key and the webhook secret masked, with where to get them).
import { maskKey } from '../../../config/resolve.js';
import { isLoopback } from '../../../config/base-url.js';
import type { Colors } from '../../../output/colors.js';
import type { Sandbox, SandboxOptions } from '../../../sandbox/types.js';
import { formatCount } from '../../../output/time.js';
import { WEBHOOK_SECRET_ENV } from '../../flags/index.js';
import { shellWord } from '../../shell-word.js';

const q = (s: string) => JSON.stringify(s);

/**
 * The one JSON line printed on stdout when ready, spaced exactly as the contract shows it:
 * {"baseUrl": "...", "workspaces": [{"name": "demo", "apiKey": "...", "addon": true}, ...], "webhookSecret": "whsec_..."}
 */
export function readyLine(sb: Pick<Sandbox, 'url' | 'workspaces' | 'webhookSecret'>): string {
  const workspaces = sb.workspaces.map((w) => `{"name": ${q(w.name)}, "apiKey": ${q(w.apiKey)}, "addon": ${w.addon}}`).join(', ');
  return `{"baseUrl": ${q(sb.url)}, "workspaces": [${workspaces}], "webhookSecret": ${q(sb.webhookSecret)}}`;
}

/**
 * Where the webhook secret can be had in full, for `socialpub listen`: a file (the user's
 * --webhook-secret-file, or the 0600 file --write-profile saved it in), the environment, the
 * command line, or nowhere but this process (generated, not saved).
 */
export type SecretWhere = { source: 'file'; file: string } | { source: 'env' | 'flag' | 'generated' };

export interface BannerInput {
  sandbox: Pick<Sandbox, 'url' | 'workspaces' | 'webhookSecret' | 'restored' | 'fixtures'> & Partial<Pick<Sandbox, 'dashboardUrl'>>;
  options: SandboxOptions;
  profile: string | undefined;
  json: boolean;
  colors: Colors;
  /** Default: given (env) when options.webhookSecret is set, else generated. */
  secret?: SecretWhere;
  /** A 0600 file holding the demo key for `auth login --with-key` (loopback, no --write-profile, no --json). */
  keyFile?: string;
}

const n = formatCount;

/** Where `socialpub listen` listens by default. */
const LISTEN_URL = 'http://127.0.0.1:4567/webhooks';

/** The listen flags that receive deliveries sent to `url` (none for listen's defaults). */
function listenFlags(url: string | undefined): string {
  if (url === undefined) return '';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${port === '4567' ? '' : ` --port ${port}`}${u.pathname === '/webhooks' ? '' : ` --path ${u.pathname}`}`;
}
const pct = (v: number) => `${Math.round(v * 1000) / 10}%`;

/** `socialpub listen` with the secret from where it is, or undefined when it is only in this process. */
function listenCommand(where: SecretWhere, json: boolean, webhookUrl: string): string | undefined {
  const flags = listenFlags(webhookUrl);
  if (where.source === 'file') return `socialpub listen --secret-file ${shellWord(where.file)}${flags}`;
  if (where.source === 'env') return `socialpub listen${flags}   # with the same ${WEBHOOK_SECRET_ENV}`;
  if (where.source === 'flag') return `socialpub listen --secret-file FILE${flags}   # FILE holding the secret you gave`;
  return json ? `socialpub listen${flags}   # with ${WEBHOOK_SECRET_ENV} set to the ready line's webhookSecret` : undefined;
}

export function banner({ sandbox, options, profile, json, colors: c, secret: secretWhere, keyFile }: BannerInput): string {
  const lines: string[] = [];
  const row = (label: string, text: string) => lines.push(`  ${c.dim(label.padEnd(12))}${text}`);
  lines.push(`${c.bold('socialpub sandbox')} listening on ${c.cyan(sandbox.url)}`);
  const width = Math.max(...sandbox.workspaces.map((w) => w.name.length));
  sandbox.workspaces.forEach((w, i) => {
    const note = w.addon ? 'API add-on active' : 'no API add-on: every request answers 403 ADDON_REQUIRED';
    row(i === 0 ? 'workspaces' : '', `${w.name.padEnd(width)}  key ${maskKey(w.apiKey)}  ${c.dim(note)}`);
  });
  // Never whole (terminal scrollback, screen shares, CI logs keep it): `socialpub listen` gets it
  // from a file or the environment, and the lines below say which.
  const where: SecretWhere = secretWhere ?? (options.webhookSecret === undefined ? { source: 'generated' } : { source: 'env' });
  const secret = `whsec_${maskKey(sandbox.webhookSecret)}${where.source === 'file' ? ` (in ${where.file})` : ''}`;
  row('webhooks', options.webhookUrl ? `→ ${options.webhookUrl}, signed with ${secret}` : `none (add --webhook-url ${LISTEN_URL} for socialpub listen; secret ${secret})`);
  row('publishing', `${pct(options.failureRate ?? 0.2)} of targets fail · ${options.seed !== undefined ? `seed ${options.seed}` : 'random seed (--seed N to reproduce)'}`);
  row('limits', `${n(options.writeLimit ?? 100)} writes and ${n(options.readLimit ?? 10_000)} reads per workspace per hour`);
  if (sandbox.fixtures || options.fixtures) {
    const ignored = sandbox.restored && options.fixtures && options.fixtures !== sandbox.fixtures ? '; --fixtures ignored' : '';
    row('fixtures', `${n(sandbox.fixtures)} results in demo${sandbox.restored ? ` (from the data file${ignored})` : ''}`);
  }
  // Accounts are seeded at a data file's first start only: a restart keeps what it has (their state included).
  if (options.accounts !== undefined && sandbox.restored) row('accounts', 'from the data file; --accounts ignored');
  row('data', options.dataFile ? `${sandbox.restored ? 'restored from and saved to' : 'saved to'} ${options.dataFile}` : 'in memory (--data FILE keeps it across restarts)');
  if (sandbox.dashboardUrl) row('dashboard', `${sandbox.dashboardUrl}${sandbox.dashboardUrl.includes('?token=') ? c.dim('  (open it once with the token; anyone with it sees every workspace)') : c.dim('  (in a browser)')}`);
  row('openapi', `${sandbox.url}/openapi.json`);
  if (options.latencyMs) row('latency', `+${n(options.latencyMs)} ms on every response`);
  if (options.chaos) row('chaos', `${pct(options.chaos)} of requests meet a fault: 500, reset, lost response, 429, or a response after ${n(options.chaosSlowMs ?? 35_000)} ms`);
  lines.push('');
  const demo = sandbox.workspaces.find((w) => w.addon);
  if (profile) {
    lines.push(`Saved profile "${profile}" with the demo key. Try: ${c.bold(`socialpub --profile ${profile} posts list`)}`);
  } else if (json) {
    lines.push('Keys are masked here; the full keys and secret are in the JSON ready line on stdout.');
  } else if (isLoopback(sandbox.url) && demo && keyFile) {
    // Never whole on screen, not even this process's local key: `auth login` reads it from the
    // 0600 file on stdin, so logging in needs no restart.
    lines.push('Log in from another terminal (the demo key is in a 0600 file until the sandbox stops):');
    lines.push(`  ${c.bold(`socialpub auth login --with-key --profile sandbox --base-url ${sandbox.url} < ${shellWord(keyFile)}`)}`);
    lines.push(`then \`socialpub --profile sandbox posts list\`; or save it at start: \`socialpub sandbox --write-profile\`.`);
  } else if (isLoopback(sandbox.url)) {
    lines.push('Keys are masked here. Save the demo key as a profile at start: ' + c.bold('socialpub sandbox --write-profile'));
    lines.push('or take the keys in full from the ready line of `socialpub sandbox --json` (stdout).');
  } else {
    lines.push('Keys are masked here: the sandbox is reachable from other machines. Get them in full from the ready');
    lines.push(`line of \`socialpub sandbox --json\` (stdout), or save the demo key as a profile: ${c.bold('socialpub sandbox --write-profile')}.`);
  }
  // Deliveries go somewhere only with --webhook-url (the row above says how without it).
  const listen = options.webhookUrl ? listenCommand(where, json, options.webhookUrl) : undefined;
  if (listen) {
    lines.push('Receive the webhooks in another terminal (a listener on the --webhook-url, with this secret):');
    lines.push(`  ${c.bold(listen)}`);
  } else if (options.webhookUrl && !json) {
    lines.push(`The webhook secret is shown masked. To verify deliveries with socialpub listen, start with --write-profile`);
    lines.push(`(it saves the secret in a 0600 file for listen --secret-file), or take it from the --json ready line.`);
  }
  lines.push(c.dim('Press Ctrl-C to stop.'));
  return lines.join('\n');
}

