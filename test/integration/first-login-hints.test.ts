// What a first user meets against a local sandbox: a wrong key, a sandbox that is not running,
// and a profile name that does not exist.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { manualSandbox, type ManualSandbox } from './posts-support.js';
import { keyRefusal } from '../../src/cli/commands/auth/verify-key.js';
import { AuthError } from '../../src/client/errors.js';

let sb: ManualSandbox;
beforeAll(async () => {
  sb = await manualSandbox();
});
afterAll(async () => {
  await sb?.close();
});

describe('hints for a loopback base URL', () => {
  it('a wrong key points at the sandbox banner, not at Settings → Developers', async () => {
    const r = await runCli(['posts', 'list'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: 'sk_sandbox_wrongwrongwrong' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/hint: .*local sandbox.*banner of `socialpub sandbox`/);
    expect(r.stderr).toMatch(/socialpub sandbox --write-profile/);
    expect(r.stderr).not.toMatch(/Developers/);
  });

  it('auth login with a wrong key says the same', async () => {
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', sb.url], { stdin: 'sk_sandbox_wrongwrongwrong' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/local sandbox/);
    expect(r.stderr).not.toMatch(/Developers/);
  });

  it('with the sandbox down, connection refused suggests starting it', async () => {
    const r = await runCli(['--max-retries', '0', 'posts', 'list'], { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: 'sk_sandbox_anything12345' } });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/hint: nothing answers at http:\/\/127\.0\.0\.1:9: start the local sandbox with `socialpub sandbox`/);
  });

  it('a remote base URL keeps the service hints', async () => {
    const r = await runCli(['--max-retries', '0', '--timeout', '2s', 'posts', 'list'], { env: { SOCIALPUB_BASE_URL: 'https://api.invalid', SOCIALPUB_API_KEY: 'sk_live_anything12345' } });
    expect(r.code).toBe(6);
    expect(r.stderr).not.toMatch(/socialpub sandbox/);
    expect(r.stderr).toMatch(/check the base URL/);
  });
});

describe('hints for the service', () => {
  it('a key refused by a remote service points at Settings → Developers', () => {
    const err = keyRefusal(new AuthError('invalid key', { status: 401, code: 'UNAUTHORIZED' }), { baseUrl: 'https://api.example.com', login: true });
    expect(err?.hints.join('\n')).toMatch(/Settings → Developers/);
    expect(err?.hints.join('\n')).not.toMatch(/sandbox/);
  });
});

describe('-p with a profile that does not exist', () => {
  it('names the profiles there are (exit 3: no key to use)', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ current: 'work', profiles: { work: { baseUrl: sb.url }, sandbox: { baseUrl: sb.url } } }), { mode: 0o600 });
      const r = await runCli(['-p', 'acme', 'posts', 'list'], { configDir: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/there is no profile named "acme"/);
      expect(r.stderr).toMatch(/existing profiles: (work, sandbox|sandbox, work)/);
      expect(r.stderr).not.toMatch(/no API key for profile/);
    } finally {
      cleanup();
    }
  });
});
