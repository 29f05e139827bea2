// `socialpub sandbox` run in-process: the ready line (stdout, exactly the contract's shape),
// the banner (stderr, keys masked), --write-profile, bad flags (exit 2) and Ctrl-C (exit 0).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { captureStream, runCli, tempConfigDir, type CapturedStream } from '../helpers/run-cli.js';
import { banner } from '../../src/cli/commands/sandbox/banner.js';
import { plainColors } from '../../src/output/colors.js';

interface Running {
  stdout: CapturedStream;
  stderr: CapturedStream;
  stop(): void;
  done: Promise<number>;
  configDir: string;
  cleanup(): void;
}

function start(argv: string[], env: Record<string, string> = {}, prepare?: (configDir: string) => void): Running {
  const stdout = captureStream(false);
  const stderr = captureStream(false);
  const stdin = Object.assign(Readable.from([]), { isTTY: false });
  const controller = new AbortController();
  const { dir, cleanup } = tempConfigDir();
  prepare?.(dir);
  const done = main(argv, { io: { stdout, stderr, stdin }, env: { SOCIALPUB_CONFIG_DIR: dir, HOME: join(dir, 'home'), NO_COLOR: '1', ...env }, signal: controller.signal });
  return { stdout, stderr, stop: () => controller.abort(), done, configDir: dir, cleanup };
}

/** Resolves once `stream` contains text matching `pattern` (or the command ends first). */
async function waitFor(run: Running, stream: CapturedStream, pattern: RegExp): Promise<string> {
  for (;;) {
    const match = pattern.exec(stream.text());
    if (match) return match[0];
    const ended = await Promise.race([run.done.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 10))]);
    if (ended && !pattern.test(stream.text())) throw new Error(`ended without ${pattern}: ${run.stderr.text()}`);
  }
}

describe('socialpub sandbox', () => {
  it('prints the ready line with the full keys, a banner with masked keys, serves, and exits 0 on Ctrl-C', async () => {
    const run = start(['sandbox', '--port', '0', '--json', '--seed', '42', '--failure-rate', '10%', '--fixtures', '25']);
    try {
      const line = await waitFor(run, run.stdout, /^.*\n/);
      expect(line).toMatch(
        /^\{"baseUrl": "http:\/\/127\.0\.0\.1:\d+", "workspaces": \[\{"name": "demo", "apiKey": "sk_sandbox_\w+", "addon": true\}, \{"name": "other", "apiKey": "sk_sandbox_\w+", "addon": true\}, \{"name": "lapsed", "apiKey": "sk_sandbox_\w+", "addon": false\}\], "webhookSecret": "whsec_[A-Za-z0-9+/=]+"\}\n$/,
      );
      const ready = JSON.parse(line) as { baseUrl: string; workspaces: { name: string; apiKey: string }[] };
      const demoKey = ready.workspaces[0]!.apiKey;
      const res = await fetch(`${ready.baseUrl}/api/v1/post-results?limit=1`, { headers: { authorization: `Bearer ${demoKey}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { meta: { total: number } }).meta.total).toBe(25);

      await waitFor(run, run.stderr, /Ctrl-C/);
      const banner = run.stderr.text();
      expect(banner).toContain(ready.baseUrl);
      expect(banner).toContain(`…${demoKey.slice(-4)}`);
      expect(ready.workspaces.length).toBeGreaterThan(0);
      for (const w of ready.workspaces) expect(banner).not.toContain(w.apiKey);
      expect(banner).toMatch(/ready line/);
      expect(banner).toMatch(/10% of targets fail · seed 42/);
      expect(run.stdout.text().split('\n').filter(Boolean)).toHaveLength(1);

      run.stop();
      expect(await run.done).toBe(0);
      expect(run.stderr.text()).toMatch(/sandbox stopped/);
      await expect(fetch(`${ready.baseUrl}/v1/posts`)).rejects.toThrow();
    } finally {
      run.stop();
      await run.done;
      run.cleanup();
    }
  });

  it('gives the same keys for the same seed', async () => {
    const keys = [];
    for (let i = 0; i < 2; i++) {
      const run = start(['sandbox', '--port', '0', '--json', '--seed', '7']);
      keys.push(JSON.parse(await waitFor(run, run.stdout, /^.*\n/)).workspaces);
      run.stop();
      await run.done;
      run.cleanup();
    }
    expect(keys[1]).toEqual(keys[0]);
  });

  it('--write-profile saves a profile with the base URL and the demo key', async () => {
    const run = start(['sandbox', '--port', '0', '--write-profile', 'local']);
    try {
      await waitFor(run, run.stderr, /Ctrl-C/);
      expect(run.stdout.text()).toBe('');
      expect(run.stderr.text()).toMatch(/Saved profile "local"/);
      const config = JSON.parse(readFileSync(join(run.configDir, 'config.json'), 'utf8')) as { profiles: Record<string, { baseUrl: string; apiKey: string }> };
      const profile = config.profiles.local!;
      expect(profile.apiKey).toMatch(/^sk_sandbox_/);
      const res = await fetch(`${profile.baseUrl}/v1/posts`, { headers: { authorization: `Bearer ${profile.apiKey}` } });
      expect(res.status).toBe(200);
      expect(run.stderr.text()).not.toContain(profile.apiKey);
      // With no current profile, the written one becomes current (else `posts list` looks for "default").
      expect((config as unknown as { current?: string }).current).toBe('local');
      expect(run.stderr.text()).toMatch(/"local" is now the current profile/);
    } finally {
      run.stop();
      expect(await run.done).toBe(0);
      run.cleanup();
    }
  });

  it('--write-profile saves the generated webhook secret in a 0600 file for listen --secret-file; the banner shows it masked', async () => {
    const run = start(['sandbox', '--port', '0', '--json', '--write-profile', 'local', '--webhook-url', 'http://127.0.0.1:4999/webhooks']);
    try {
      const ready = JSON.parse(await waitFor(run, run.stdout, /^.*\n/)) as { webhookSecret: string };
      await waitFor(run, run.stderr, /Ctrl-C/);
      const file = join(run.configDir, 'local.webhook-secret');
      expect(readFileSync(file, 'utf8')).toBe(`${ready.webhookSecret}\n`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = run.stderr.text();
      expect(text).not.toContain(ready.webhookSecret);
      expect(text).toContain(`signed with whsec_…${ready.webhookSecret.slice(-4)} (in ${file})`);
      expect(text).toContain(`socialpub listen --secret-file ${file} --port 4999`);
    } finally {
      run.stop();
      expect(await run.done).toBe(0);
      run.cleanup();
    }
  });

  it('--write-profile with a secret of your own removes the one an earlier run generated (it signs nothing now)', async () => {
    const secret = `whsec_${Buffer.alloc(18, 5).toString('base64')}`;
    const run = start(['sandbox', '--port', '0', '--write-profile', 'local'], { SOCIALPUB_WEBHOOK_SECRET: secret }, (dir) => writeFileSync(join(dir, 'local.webhook-secret'), 'whsec_old\n', { mode: 0o600 }));
    try {
      await waitFor(run, run.stderr, /Ctrl-C/);
      const file = join(run.configDir, 'local.webhook-secret');
      expect(existsSync(file)).toBe(false);
      expect(run.stderr.text()).toContain(`removed ${file}: the secret an earlier sandbox generated`);
    } finally {
      run.stop();
      expect(await run.done).toBe(0);
      run.cleanup();
    }
  });

  it('--write-profile leaves another current profile alone and says how to switch', async () => {
    const existing = { current: 'work', profiles: { work: { baseUrl: 'https://api.example.com' } } };
    const run = start(['sandbox', '--port', '0', '--write-profile'], {}, (dir) => writeFileSync(join(dir, 'config.json'), JSON.stringify(existing), { mode: 0o600 }));
    try {
      await waitFor(run, run.stderr, /Ctrl-C/);
      const config = JSON.parse(readFileSync(join(run.configDir, 'config.json'), 'utf8')) as { current: string; profiles: Record<string, unknown> };
      expect(config.current).toBe('work');
      expect(Object.keys(config.profiles).sort()).toEqual(['sandbox', 'work']);
      expect(run.stderr.text()).toMatch(/The current profile is still "work"; switch with: socialpub profile use sandbox/);
    } finally {
      run.stop();
      expect(await run.done).toBe(0);
      run.cleanup();
    }
  });

  it('--write-profile never replaces a profile that points to a real service: exit 2 before the sandbox starts, the file unchanged', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const text = JSON.stringify({ current: 'work', profiles: { work: { baseUrl: 'https://api.example.com', apiKey: 'sk_live_real_key_0001' } } });
      writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
      const r = await runCli(['sandbox', '--port', '0', '--write-profile', 'work'], { configDir: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('error: --write-profile: profile "work" points to https://api.example.com, not to a local sandbox; it was left as it is and the sandbox was not started');
      expect(r.stderr).toContain('hint: name another profile: --write-profile sandbox');
      expect(r.stderr).not.toMatch(/listening/);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
    } finally {
      cleanup();
    }
  });

  it('--write-profile over an earlier sandbox profile keeps its preferences', async () => {
    const existing = { current: 'sandbox', profiles: { sandbox: { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_sandbox_old_0001', timezone: 'Europe/Paris' } } };
    const run = start(['sandbox', '--port', '0', '--write-profile'], {}, (dir) => writeFileSync(join(dir, 'config.json'), JSON.stringify(existing), { mode: 0o600 }));
    try {
      await waitFor(run, run.stderr, /Ctrl-C/);
      const config = JSON.parse(readFileSync(join(run.configDir, 'config.json'), 'utf8')) as { profiles: Record<string, { baseUrl: string; apiKey: string; timezone: string }> };
      expect(config.profiles.sandbox!.timezone).toBe('Europe/Paris');
      expect(config.profiles.sandbox!.apiKey).toMatch(/^sk_sandbox_/);
      expect(config.profiles.sandbox!.apiKey).not.toBe('sk_sandbox_old_0001');
      expect(config.profiles.sandbox!.baseUrl).not.toBe('http://127.0.0.1:9');
    } finally {
      run.stop();
      expect(await run.done).toBe(0);
      run.cleanup();
    }
  });

  it('without --json on loopback, the banner names a 0600 key file its login line reads, never the key, and the file goes with the sandbox', async () => {
    const run = start(['sandbox', '--port', '0', '--seed', '3']);
    let file: string | undefined;
    try {
      await waitFor(run, run.stderr, /Ctrl-C/);
      const text = run.stderr.text();
      expect(text.match(/sk_sandbox_\w{8,}/g), text).toBeNull();
      const line = /socialpub auth login --with-key --profile sandbox --base-url (http:\/\/127\.0\.0\.1:\d+) < (\S+)\n/.exec(text);
      expect(line, text).not.toBeNull();
      const [, url, path] = line!;
      file = path!;
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
      const key = readFileSync(file, 'utf8');
      expect(key).toMatch(/^sk_sandbox_\w+\n$/);
      expect(text).toContain(`…${key.trim().slice(-4)}`);
      // As the shell runs it: the file on stdin.
      const login = await runCli(['auth', 'login', '--with-key', '--profile', 'sandbox', '--base-url', url!, '--insecure-storage'], { stdin: key, configDir: run.configDir });
      expect(login.code, login.stderr).toBe(0);
      const list = await runCli(['--profile', 'sandbox', 'posts', 'list'], { configDir: run.configDir });
      expect(list.code, list.stderr).toBe(0);
    } finally {
      run.stop();
      expect(await run.done).toBe(0);
      run.cleanup();
    }
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(file, '..'))).toBe(false);
  });

  it('a sandbox reachable from other machines keeps every key masked', () => {
    const workspaces = [{ name: 'demo', apiKey: 'sk_sandbox_0123456789abcdef', addon: true }];
    const text = banner({ sandbox: { url: 'http://192.168.1.20:8787', workspaces, webhookSecret: 'whsec_abcdefabcdef', restored: false, fixtures: 0 }, options: {}, profile: undefined, json: false, colors: plainColors });
    expect(text).not.toContain('sk_sandbox_0123456789abcdef');
    expect(text).toMatch(/--write-profile/);
  });

  it.each([
    [['--failure-rate', '1.5'], /--failure-rate/],
    [['--port', '70000'], /--port/],
    [['--latency', 'soon'], /--latency/],
    [['--webhook-url', 'ftp://x'], /--webhook-url/],
    [['--webhook-secret', 'hunter2'], /--webhook-secret/],
    [['--seed', 'abc'], /--seed/],
    [['--write-profile', 'no spaces'], /--write-profile/],
  ])('refuses %j with exit 2, naming the flag', async (flags, message) => {
    const run = start(['sandbox', '--port', '0', ...flags]);
    expect(await run.done).toBe(2);
    expect(run.stderr.text()).toMatch(message);
    expect(run.stdout.text()).toBe('');
    run.cleanup();
  });

  it('the webhook secret from --webhook-secret-file; on the command line it still works, with a warning', async () => {
    const secret = `whsec_${Buffer.alloc(18, 3).toString('base64')}`;
    const folder = mkdtempSync(join(tmpdir(), 'sandbox-secret-'));
    const file = join(folder, 'webhook-secret');
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    const fromFile = start(['sandbox', '--port', '0', '--json', '--webhook-secret-file', file]);
    const fromFlag = start(['sandbox', '--port', '0', '--json', '--webhook-secret', secret]);
    try {
      expect(JSON.parse(await waitFor(fromFile, fromFile.stdout, /^.*\n/))).toMatchObject({ webhookSecret: secret });
      await waitFor(fromFile, fromFile.stderr, /Ctrl-C/);
      expect(fromFile.stderr.text()).not.toMatch(/warning/);
      expect(fromFile.stderr.text()).not.toContain(secret);
      expect(JSON.parse(await waitFor(fromFlag, fromFlag.stdout, /^.*\n/))).toMatchObject({ webhookSecret: secret });
      expect(fromFlag.stderr.text()).toMatch(/warning: --webhook-secret on the command line is visible to other users of this machine \(ps\); use --webhook-secret-file FILE or SOCIALPUB_WEBHOOK_SECRET instead/);
    } finally {
      for (const run of [fromFile, fromFlag]) {
        run.stop();
        await run.done;
        run.cleanup();
      }
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says so when the port is taken (exit 1)', async () => {
    const first = start(['sandbox', '--port', '0', '--json']);
    try {
      const port = new URL(JSON.parse(await waitFor(first, first.stdout, /^.*\n/)).baseUrl).port;
      const second = start(['sandbox', '--port', port]);
      expect(await second.done).toBe(1);
      expect(second.stderr.text()).toMatch(/already in use/);
      second.cleanup();
    } finally {
      first.stop();
      await first.done;
      first.cleanup();
    }
  });
});
