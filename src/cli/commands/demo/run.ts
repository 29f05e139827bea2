// The demo's walk through the mission, step by step, against an in-process sandbox and listener
// on one manual clock (see clock.ts): scheduling "a few seconds ahead" costs no real time.
import type { Context } from '../../context.js';
import { advancingClock } from '../../../demo/clock.js';
import { startServices, type DemoServices } from '../../../demo/services.js';
import { demoSession, type DemoSession } from './session.js';

const PLATFORMS = ['twitter-x', 'bluesky', 'linkedin'];

export interface DemoOptions {
  seed: number;
  failureRate: number;
  /** Seconds between scheduling and publication (on the demo's clock). */
  leadSeconds: number;
}

export async function runDemo(ctx: Context, options: DemoOptions): Promise<number> {
  const services = await startServices(options);
  const session = demoSession(ctx, advancingClock(services.clock));
  try {
    introduce(session, services);
    const loggedIn = await logIn(session, services);
    if (loggedIn !== 0) return loggedIn;
    const draft = await createDraft(session);
    if (typeof draft === 'number') return draft;
    const scheduled = await schedule(session, services, draft, options.leadSeconds);
    if (scheduled !== 0) return scheduled;
    await waitForResults(session, draft);
    await inspectOneResult(session, services, draft);
    await showWebhookEvents(session, services);
    offerToTry(session);
    return 0;
  } finally {
    await services.close();
    session.close();
  }
}

function introduce(session: DemoSession, { sandbox, listener }: DemoServices): void {
  const c = session.colors;
  session.prose(
    `${c.bold('socialpub demo')} — a walk through the whole job against a local sandbox of the service\n` +
      `${c.dim(`sandbox ${sandbox.url} · webhook listener ${listener.url} · throwaway config ${session.configDir}`)}\n`,
  );
}

async function logIn(session: DemoSession, { sandbox, workspace }: DemoServices): Promise<number> {
  session.say('Log in: the key comes from stdin (never from a flag), and is checked before it is saved.');
  // The profile is a throwaway in a temporary folder: the system credential store is no place for it.
  const login = await session.run(['auth', 'login', '--with-key', '--insecure-storage', '--profile', 'sandbox', '--base-url', sandbox.url], {
    shown: `auth login --with-key --insecure-storage --profile sandbox --base-url ${sandbox.url}   # key on stdin`,
    stdin: workspace.apiKey,
  });
  if (login.code !== 0) return login.code;
  await session.run(['auth', 'status']);
  return 0;
}

/** The new post's id, or the exit code of a step that failed. */
async function createDraft(session: DemoSession): Promise<string | number> {
  session.say(`A draft for ${PLATFORMS.length} platforms, checked locally against each platform's limits first.`);
  const text = 'socialpub demo: one post, three platforms, one command.';
  const create = await session.run(['posts', 'create', ...PLATFORMS.flatMap((p) => ['--platform', p]), '--text', text, '--title', 'Demo launch', '-q'], {
    shown: `posts create ${PLATFORMS.map((p) => `--platform ${p}`).join(' ')} --text "${text}" --title "Demo launch" -q`,
  });
  const postId = create.stdout.trim().split('\n').pop() ?? '';
  if (create.code !== 0 || !postId) return create.code || 1;
  await session.run(['posts', 'list', '--status', 'draft']);
  return postId;
}

async function schedule(session: DemoSession, { clock }: DemoServices, postId: string, leadSeconds: number): Promise<number> {
  session.say(`Schedule it ${leadSeconds} seconds ahead; the sandbox publishes it when the time comes (the demo's clock skips the wait).`);
  const at = new Date(clock.now() + leadSeconds * 1000).toISOString();
  const scheduled = await session.run(['posts', 'schedule', postId, '--at', at], { repeatAs: `posts schedule ${postId} --at +1m` });
  if (scheduled.code !== 0) return scheduled.code;
  await session.run(['posts', 'list', '--status', 'scheduled']);
  return 0;
}

async function waitForResults(session: DemoSession, postId: string): Promise<void> {
  session.say('Wait for every target to report (exit 7 when any platform failed, as a CI job would see it).');
  // Repeated by hand the post is due a minute after `--at +1m`: the wait must outlast that.
  await session.run(['results', 'wait', '--post', postId, '--timeout', '30s'], { repeatAs: `results wait --post ${postId} --timeout 3m` });
  await session.run(['posts', 'list', '--status', 'published', '--status', 'failed']);
  session.say('Results: success and failure rows merged, newest first.');
  await session.run(['results', 'list', '--post', postId]);
}

async function inspectOneResult(session: DemoSession, { sandbox, workspace }: DemoServices, postId: string): Promise<void> {
  const res = await fetch(`${sandbox.url}/api/v1/post-results?post_id=${encodeURIComponent(postId)}&limit=10`, {
    headers: { authorization: `Bearer ${workspace.apiKey}` },
  });
  const page = (await res.json()) as { data: Array<{ id: string; success: boolean }> };
  const failure = page.data.find((r) => !r.success);
  const pick = failure ?? page.data[0];
  if (!pick) return;
  session.say(failure ? 'Why did it fail? One result in detail, with the provider context.' : 'One result in detail.');
  await session.run(['results', 'get', pick.id]);
}

async function showWebhookEvents(session: DemoSession, { sandbox, events }: DemoServices): Promise<void> {
  const c = session.colors;
  session.say('What the webhook listener received (signed deliveries, verified):');
  await sandbox.settle();
  for (const e of events) {
    const d = e.delivery;
    const mark = d?.status === 'published' ? c.green('✓ published') : c.red('✗ failed   ');
    const err = d?.error ? `  ${d.error.code}: ${d.error.message}` : '';
    session.prose(`  ${e.receivedAt}  ${(d?.platform ?? '?').padEnd(14)} ${mark}  ${d?.postId ?? '?'}${err}\n`);
  }
  if (events.length === 0) session.write('  (none yet)\n');
}

function offerToTry(session: DemoSession): void {
  session.say('Try it yourself against a sandbox of your own:');
  // What to do is prose above each command, not a comment after it: at any width the prose
  // wraps and the command stays whole, ready to copy.
  session.prose(
    'In one terminal, a local service and a profile "sandbox" pointing at it:\n' +
      '  socialpub sandbox --write-profile\n' +
      'In another, make that profile the current one, then any of the commands above:\n' +
      '  socialpub profile use sandbox\n' +
      session.commands
        .filter((cmd) => !cmd.startsWith('socialpub auth login'))
        .map((cmd) => `  ${cmd}\n`)
        .join('') +
      '(your own sandbox prints its own ids: use those)\n',
  );
  session.prose(`\nMore: socialpub --help · socialpub help environment · socialpub help exit-codes\n`);
}
