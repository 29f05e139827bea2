// What `socialpub sandbox` prints: the ready line for scripts (stdout, full keys) and the
// banner for people (stderr, keys masked).
import { maskKey } from '../../../config/resolve.js';
import { isLoopback } from '../../../config/base-url.js';
import type { Colors } from '../../../output/colors.js';
import type { Sandbox, SandboxOptions } from '../../../sandbox/types.js';
import { formatCount } from '../../../output/time.js';

const q = (s: string) => JSON.stringify(s);

/**
 * The one JSON line printed on stdout when ready, spaced exactly as the contract shows it:
 * {"baseUrl": "...", "workspaces": [{"name": "demo", "apiKey": "...", "addon": true}, ...], "webhookSecret": "whsec_..."}
 */
export function readyLine(sb: Pick<Sandbox, 'url' | 'workspaces' | 'webhookSecret'>): string {
  const workspaces = sb.workspaces.map((w) => `{"name": ${q(w.name)}, "apiKey": ${q(w.apiKey)}, "addon": ${w.addon}}`).join(', ');
  return `{"baseUrl": ${q(sb.url)}, "workspaces": [${workspaces}], "webhookSecret": ${q(sb.webhookSecret)}}`;
}

export interface BannerInput {
  sandbox: Pick<Sandbox, 'url' | 'workspaces' | 'webhookSecret' | 'restored' | 'fixtures'> & Partial<Pick<Sandbox, 'dashboardUrl'>>;
  options: SandboxOptions;
  profile: string | undefined;
  json: boolean;
  colors: Colors;
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

export function banner({ sandbox, options, profile, json, colors: c }: BannerInput): string {
  const lines: string[] = [];
  const row = (label: string, text: string) => lines.push(`  ${c.dim(label.padEnd(12))}${text}`);
  lines.push(`${c.bold('socialpub sandbox')} listening on ${c.cyan(sandbox.url)}`);
  const width = Math.max(...sandbox.workspaces.map((w) => w.name.length));
  sandbox.workspaces.forEach((w, i) => {
    const note = w.addon ? 'API add-on active' : 'no API add-on: every request answers 403 ADDON_REQUIRED';
    row(i === 0 ? 'workspaces' : '', `${w.name.padEnd(width)}  key ${maskKey(w.apiKey)}  ${c.dim(note)}`);
  });
  // A secret this sandbox made, on this machine only, is shown whole: `socialpub listen` needs it,
  // and digging it out of the data file is no protection. One the user gave may be used elsewhere.
  const ownSecret = options.webhookSecret === undefined && isLoopback(sandbox.url);
  const secret = ownSecret ? sandbox.webhookSecret : maskKey(sandbox.webhookSecret);
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
  } else if (isLoopback(sandbox.url) && demo) {
    // A key of this process only, reachable from this machine only (and printed in full on the
    // --json ready line anyway): shown, so logging in needs no restart.
    lines.push('Log in from another terminal (the demo key is a local test key, shown in full here):');
    lines.push(`  ${c.bold(`printf %s ${demo.apiKey} | socialpub auth login --with-key --profile sandbox --base-url ${sandbox.url}`)}`);
    lines.push(`then \`socialpub --profile sandbox posts list\`; or save it at start: \`socialpub sandbox --write-profile\`.`);
  } else {
    lines.push('Keys are masked here: the sandbox is reachable from other machines. Get them in full from the ready');
    lines.push(`line of \`socialpub sandbox --json\` (stdout), or save the demo key as a profile: ${c.bold('socialpub sandbox --write-profile')}.`);
  }
  // Deliveries go somewhere only with --webhook-url (the row above says how without it).
  if (ownSecret && options.webhookUrl) {
    lines.push('Receive the webhooks in another terminal (a listener on the --webhook-url, with this secret):');
    lines.push(`  ${c.bold(`SOCIALPUB_WEBHOOK_SECRET=${sandbox.webhookSecret} socialpub listen${listenFlags(options.webhookUrl)}`)}`);
  }
  lines.push(c.dim('Press Ctrl-C to stop.'));
  return lines.join('\n');
}

