// The demo's walk through the mission, step by step, against an in-process sandbox and listener.
// Each step runs the real command in-process (same code as the binary) with a throwaway config
// folder, and prints the command line first so the user can repeat it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { runProgram } from '../run.js';
import { tee } from './tee.js';
import type { DeliveryEvent } from '../../listen/types.js';
import { generateWebhookSecret } from '../../wire/webhook-signing.js';

const PLATFORMS = ['twitter-x', 'bluesky', 'linkedin'];

export interface DemoOptions {
  seed: number;
  failureRate: number;
  /** Seconds between scheduling and publication. */
  leadSeconds: number;
}

interface StepResult {
  code: number;
  stdout: string;
}

export async function runDemo(ctx: Context, options: DemoOptions): Promise<number> {
  const out = ctx.output();
  const c = out.colors;
  const say = (text: string) => ctx.io.stdout.write(`\n${c.bold(c.cyan('▸'))} ${text}\n`);
  const commands: string[] = [];
  const configDir = mkdtempSync(join(tmpdir(), 'socialpub-demo-'));

  const [{ startSandbox }, { startListener }] = await Promise.all([import('../../sandbox/index.js'), import('../../listen/index.js')]);
  // One secret for both sides: the sandbox signs deliveries with it, the listener verifies them.
  const webhookSecret = generateWebhookSecret();
  const verified = await startListener({ port: 0, secret: webhookSecret });
  const events: DeliveryEvent[] = [];
  verified.on('event', (e: DeliveryEvent) => events.push(e));
  const sandbox = await startSandbox({ port: 0, seed: options.seed, failureRate: options.failureRate, webhookUrl: verified.url, webhookSecret });
  const demo = sandbox.workspaces.find((w) => w.name === 'demo')!;

  const env = {
    ...ctx.env,
    SOCIALPUB_CONFIG_DIR: configDir,
    SOCIALPUB_PROFILE: undefined,
    SOCIALPUB_API_KEY: undefined,
    SOCIALPUB_BASE_URL: undefined,
    CI: '1',
  };
  // Tables even when piped (a demo is read by a person), unless the user chose a format.
  const format = ctx.globals.formatExplicit ? ['--output', ctx.globals.format] : ['--output', 'table'];
  const run = async (argv: string[], shown: string = argv.join(' '), stdin?: string, repeatAs: string = shown): Promise<StepResult> => {
    commands.push(`socialpub ${repeatAs}`);
    ctx.io.stdout.write(`${c.dim('$')} ${c.bold(`socialpub ${shown}`)}\n`);
    const stdout = tee(ctx.io.stdout);
    const input = Readable.from(stdin === undefined ? [] : [stdin]) as Readable & { isTTY?: boolean };
    const code = await runProgram([...(ctx.globals.color ? [] : ['--no-color']), ...format, ...argv], {
      io: { stdout, stderr: ctx.io.stderr, stdin: input },
      env,
      clock: ctx.clock,
      signal: ctx.signal,
      version: ctx.version,
    });
    if (code !== 0) ctx.io.stdout.write(c.dim(`(exit ${code})\n`));
    return { code, stdout: stdout.text() };
  };
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(sandbox.url + path, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    return (await res.json()) as T;
  };

  try {
    ctx.io.stdout.write(
      `${c.bold('socialpub demo')} — a walk through the whole job against a local sandbox of the service\n` +
        `${c.dim(`sandbox ${sandbox.url} · webhook listener ${verified.url} · throwaway config ${configDir}`)}\n`,
    );

    say('Log in: the key comes from stdin (never from a flag), and is checked before it is saved.');
    const login = await run(
      ['auth', 'login', '--with-key', '--profile', 'sandbox', '--base-url', sandbox.url],
      `auth login --with-key --profile sandbox --base-url ${sandbox.url}   # key on stdin`,
      demo.apiKey,
    );
    if (login.code !== 0) return login.code;
    await run(['auth', 'status']);

    say(`A draft for ${PLATFORMS.length} platforms, checked locally against each platform's limits first.`);
    const text = 'socialpub demo: one post, three platforms, one command.';
    const create = await run(
      ['posts', 'create', ...PLATFORMS.flatMap((p) => ['--platform', p]), '--text', text, '--title', 'Demo launch', '-q'],
      `posts create ${PLATFORMS.map((p) => `--platform ${p}`).join(' ')} --text "${text}" --title "Demo launch" -q`,
    );
    const postId = create.stdout.trim().split('\n').pop() ?? '';
    if (create.code !== 0 || !postId) return create.code || 1;
    await run(['posts', 'list', '--status', 'draft']);

    say(`Schedule it ${options.leadSeconds} seconds ahead; the sandbox publishes it when the time comes.`);
    const at = new Date(ctx.clock.now() + options.leadSeconds * 1000).toISOString();
    const scheduled = await run(['posts', 'schedule', postId, '--at', at], undefined, undefined, `posts schedule ${postId} --at +1m`);
    if (scheduled.code !== 0) return scheduled.code;
    await run(['posts', 'list', '--status', 'scheduled']);

    say('Wait for every target to report (exit 7 when any platform failed, as a CI job would see it).');
    await run(['results', 'wait', '--post', postId, '--timeout', '30s']);
    await run(['posts', 'list', '--status', 'published', '--status', 'failed']);

    say('Results: success and failure rows merged, newest first.');
    await run(['results', 'list', '--post', postId]);

    const page = await api<{ data: Array<{ id: string; success: boolean }> }>(`/api/v1/post-results?post_id=${encodeURIComponent(postId)}&limit=10`);
    const failure = page.data.find((r) => !r.success);
    const pick = failure ?? page.data[0];
    if (pick) {
      say(failure ? 'Why did it fail? One result in detail, with the provider context.' : 'One result in detail.');
      await run(['results', 'get', pick.id]);
    }

    say('What the webhook listener received (signed deliveries, verified):');
    await sandbox.settle();
    for (const e of events) {
      const p = e.payload as { platform?: string; status?: string; postId?: string; error?: { code?: string; message?: string } };
      const mark = p.status === 'published' ? c.green('✓ published') : c.red('✗ failed   ');
      const err = p.error ? `  ${p.error.code}: ${p.error.message}` : '';
      ctx.io.stdout.write(`  ${e.receivedAt}  ${String(p.platform).padEnd(14)} ${mark}  ${p.postId}${err}\n`);
    }
    if (events.length === 0) ctx.io.stdout.write('  (none yet)\n');

    say('Try it yourself against a sandbox of your own:');
    ctx.io.stdout.write(
      `  socialpub sandbox --write-profile        # in one terminal: a local service, and a profile "sandbox" pointing at it\n` +
        `  socialpub profile use sandbox            # in another: then any of the commands above, e.g.\n` +
        commands
          .filter((cmd) => !cmd.startsWith('socialpub auth login'))
          .map((cmd) => `  ${cmd}\n`)
          .join('') +
        `  (your own sandbox prints its own ids: use those)\n` +
        `\nMore: socialpub --help · socialpub help environment · socialpub help exit-codes\n`,
    );
    return 0;
  } finally {
    await Promise.allSettled([verified.close(), sandbox.close()]);
    rmSync(configDir, { recursive: true, force: true });
  }
}
