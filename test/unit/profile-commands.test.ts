// `profile list|use|show|remove` in-process: no network, a temporary config folder per test.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { openProfileStore } from '../../src/config/store.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { fieldsOf } from '../../src/output/fields-of.js';

const KEY_A = 'sk_test_alpha_00000000aaaa';
const KEY_B = 'sk_test_bravo_00000000bbbb';

let tmp: { dir: string; cleanup: () => void };
const run = (argv: string[], env: Record<string, string> = {}, tty = false) => runCli(argv, { configDir: tmp.dir, env, tty });
const file = () => JSON.parse(readFileSync(openProfileStore(tmp.dir).path, 'utf8'));

beforeEach(async () => {
  tmp = tempConfigDir();
  const store = openProfileStore(tmp.dir);
  await store.set('alpha', { baseUrl: 'https://alpha.example', apiKey: KEY_A, timezone: 'Europe/Paris' });
  await store.set('bravo', { baseUrl: 'http://127.0.0.1:9000', apiKey: KEY_B, api: 'syncpostly', apiSource: 'set' });
  await store.set('empty', {});
  await store.use('alpha');
});
afterEach(() => tmp.cleanup());

describe('profile list', () => {
  it('prints TSV when piped: name, current marker, base URL, API, key as …last4', async () => {
    const r = await run(['profile', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\n$/, '').split('\n')).toEqual([
      'alpha\t*\thttps://alpha.example\tsocialpub\t…aaaa',
      'bravo\t\thttp://127.0.0.1:9000\tsyncpostly\t…bbbb',
      'empty\t\t\tsocialpub\t',
    ]);
    expect(r.stdout + r.stderr).not.toContain(KEY_A);
  });

  it('prints a JSON array with preferences and masked keys under --json', async () => {
    const r = await run(['profile', 'list', '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toEqual([
      { name: 'alpha', current: true, baseUrl: 'https://alpha.example', api: 'socialpub', key: '…aaaa', timezone: 'Europe/Paris' },
      { name: 'bravo', current: false, baseUrl: 'http://127.0.0.1:9000', api: 'syncpostly', key: '…bbbb', apiSource: 'set' },
      { name: 'empty', current: false, baseUrl: null, api: 'socialpub', key: null },
    ]);
    expect(r.stdout).not.toMatch(/apiKey|sk_test/);
  });

  it('draws a table on a terminal', async () => {
    const r = await run(['profile', 'list', '--no-color'], {}, true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+CURRENT\s+BASE URL\s+API\s+KEY/);
    expect(r.stdout).toMatch(/alpha\s+\*\s+https:\/\/alpha\.example\s+socialpub\s+…aaaa/);
    expect(r.stdout).toMatch(/bravo\s+http:\/\/127\.0\.0\.1:9000\s+syncpostly \(experimental\)\s+…bbbb/);
  });

  it('prints an empty list and a hint when there are no profiles', async () => {
    const fresh = tempConfigDir();
    try {
      const r = await runCli(['profile', 'list', '--json'], { configDir: fresh.dir });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
      expect(r.stderr).toMatch(/auth login/);
    } finally {
      fresh.cleanup();
    }
  });
});

describe('profile use', () => {
  it('switches the current profile', async () => {
    const r = await run(['profile', 'use', 'bravo']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Now using profile bravo/);
    expect(file().current).toBe('bravo');
    const list = JSON.parse((await run(['profile', 'list', '--json'])).stdout);
    expect(list.find((p: { current: boolean }) => p.current).name).toBe('bravo');
  });

  it('exits 4 for an unknown profile and says how to create it', async () => {
    const r = await run(['profile', 'use', 'ghost']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no profile named "ghost"/);
    expect(r.stderr).toMatch(/socialpub auth login --profile ghost/);
    expect(r.stderr).toMatch(/alpha, bravo, empty/);
    expect(file().current).toBe('alpha');
  });

  it('a misspelt profile name gets the nearest saved one before the way to create it, wherever a name is given', async () => {
    for (const argv of [['profile', 'use', 'bravvo'], ['profile', 'show', 'bravvo'], ['profile', 'remove', 'bravvo'], ['-p', 'bravvo', 'posts', 'list']]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBeGreaterThan(2);
      expect(r.stderr, argv.join(' ')).toMatch(/hint: did you mean "bravo"\?\n {2}hint: create it with `socialpub auth login --profile bravvo`/);
    }
    // A name no profile can have is not offered for creation (it would be refused there too).
    const invalid = await run(['profile', 'use', 'my workspace']);
    expect(invalid.code).toBe(4);
    expect(invalid.stderr).toContain('"my workspace" is not a valid profile name');
    expect(invalid.stderr).not.toContain('auth login --profile my workspace');
    const far = await run(['profile', 'use', 'ghost']);
    expect(far.stderr).not.toMatch(/did you mean/);
    expect(file().current).toBe('alpha');
  });

  it('warns when SOCIALPUB_PROFILE will still win', async () => {
    const r = await run(['profile', 'use', 'bravo'], { SOCIALPUB_PROFILE: 'alpha' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/SOCIALPUB_PROFILE=alpha is set/);
  });
});

describe('profile show', () => {
  it('shows the current profile with sources, the key masked', async () => {
    const r = await run(['profile', 'show']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/name\s+alpha \(current profile\)/);
    expect(r.stdout).toMatch(/base URL\s+https:\/\/alpha\.example \(profile\)/);
    expect(r.stdout).toMatch(/speaks\s+socialpub's own API \(default\)/);
    expect(r.stdout).toContain(`…aaaa in ${openProfileStore(tmp.dir).path}`);
    expect(r.stdout).toMatch(/timezone\s+Europe\/Paris/);
    expect(r.stdout).not.toContain(KEY_A);
  });

  it('shows a named profile as JSON, with the environment taken into account', async () => {
    const r = await run(['profile', 'show', 'bravo', '--json'], { SOCIALPUB_API_KEY: 'sk_env_override_0000zzzz' });
    expect(r.code).toBe(0);
    const view = JSON.parse(r.stdout);
    expect(view).toMatchObject({ name: 'bravo', current: false, saved: true, baseUrl: 'http://127.0.0.1:9000', baseUrlSource: 'profile', api: 'syncpostly', apiSource: 'set', key: '…zzzz', keySource: 'env', keyStoredIn: 'SOCIALPUB_API_KEY (environment, not stored)' });
    expect(r.stdout).not.toContain('sk_env_override');
  });

  it('--fields: a misspelt field is exit 2; known ones pick the view; every field listed is one the view has', async () => {
    const wrong = await run(['profile', 'show', '--json', '--fields', 'name,nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--fields: unknown field "nope"');
    expect(wrong.stdout).toBe('');
    const picked = await run(['profile', 'show', '--json', '--fields', 'name,preferences.timezone']);
    expect(JSON.parse(picked.stdout)).toEqual({ name: 'alpha', preferences: { timezone: 'Europe/Paris' } });
    const full = await run(['profile', 'show', '--json']);
    expect(Object.keys(JSON.parse(full.stdout))).toEqual(fieldsOf('profile show'));
  });

  it('a saved "api" naming no API is shown as it is, with a warning naming the fix, exit 0 (as profile list shows it)', async () => {
    await openProfileStore(tmp.dir).set('odd', { baseUrl: 'https://odd.example', apiKey: KEY_A, api: 'sincpostly' });
    const text = await run(['profile', 'show', 'odd']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/speaks\s+"sincpostly" \(profile; not an API socialpub speaks\)/);
    expect(text.stderr).toContain('warning: api of profile odd: "sincpostly" is not an API socialpub speaks');
    expect(text.stderr).toContain('socialpub auth login --profile odd --api socialpub');
    const json = await run(['-p', 'odd', 'profile', 'show', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'odd', api: 'sincpostly', apiSource: 'profile', baseUrl: 'https://odd.example' });
    expect(json.stderr).toContain('not an API socialpub speaks');
    // Other commands still refuse it before anything is sent.
    expect((await run(['-p', 'odd', 'posts', 'list'])).code).toBe(2);
  });

  it('exits 4 for an unknown named profile', async () => {
    const r = await run(['profile', 'show', 'ghost']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/auth login --profile ghost/);
  });
});

describe('profile remove', () => {
  it('removes a profile and its key; removing the current one leaves none current', async () => {
    const r = await run(['profile', 'remove', 'alpha']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Removed profile alpha/);
    expect(r.stderr).toMatch(/No profile is current now; pick one with `socialpub profile use bravo`/);
    const f = file();
    expect(Object.keys(f.profiles)).toEqual(['bravo', 'empty']);
    expect(f.current).toBeUndefined();
    expect(JSON.stringify(f)).not.toContain(KEY_A);
  });

  it("removes the webhook secret file sandbox --write-profile saved for it, and says so; another profile's stays", async () => {
    const { existsSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const mine = join(tmp.dir, 'alpha.webhook-secret');
    const theirs = join(tmp.dir, 'bravo.webhook-secret');
    writeFileSync(mine, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAA\n', { mode: 0o600 });
    writeFileSync(theirs, 'whsec_BBBBBBBBBBBBBBBBBBBBBBBB\n', { mode: 0o600 });
    const r = await run(['profile', 'remove', 'alpha']);
    expect(r.code).toBe(0);
    expect(existsSync(mine)).toBe(false);
    expect(r.stderr).toContain(`Removed its webhook secret file ${mine}`);
    expect(existsSync(theirs)).toBe(true);
    // Without a file, nothing is said about one.
    const again = await run(['profile', 'remove', 'empty']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('webhook secret');
  });

  it('exits 4 for an unknown profile and changes nothing', async () => {
    const before = readFileSync(openProfileStore(tmp.dir).path, 'utf8');
    const r = await run(['profile', 'rm', 'ghost']);
    expect(r.code).toBe(4);
    expect(readFileSync(openProfileStore(tmp.dir).path, 'utf8')).toBe(before);
  });

  it('removes an entry the file holds but that is not a profile (the fix its warning names), keeping the others', async () => {
    const { writeFileSync } = await import('node:fs');
    const path = openProfileStore(tmp.dir).path;
    writeFileSync(path, JSON.stringify({ ...file(), profiles: { ...file().profiles, work: 'https://work.example' } }));
    const list = await run(['profile', 'list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(`warning: profile "work" in ${path} is a string, not an object; it is ignored: fix it in an editor, or run \`socialpub profile remove work\``);
    const r = await run(['profile', 'remove', 'work']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Removed profile work/);
    expect(Object.keys(file().profiles)).toEqual(['alpha', 'bravo', 'empty']);
    expect(file().profiles.alpha.apiKey).toBe(KEY_A);
  });

  it('a config file that is not JSON: exit 1 with the line, the column and the fix; nothing is written', async () => {
    const { writeFileSync } = await import('node:fs');
    const path = openProfileStore(tmp.dir).path;
    const broken = readFileSync(path, 'utf8').replace('"timezone"', 'timezone');
    writeFileSync(path, broken);
    for (const argv of [['profile', 'list'], ['profile', 'use', 'bravo'], ['profile', 'remove', 'bravo']]) {
      const r = await run(argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`is not valid JSON: line 6, column 4: expected a property name in double quotes, found "t"\\. Fix it in an editor, or move it aside \\(mv .*config\\.json .*config\\.json\\.bak\\)`));
      expect(r.stderr).not.toContain(KEY_A);
    }
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  it('exits 2 when the name is missing', async () => {
    const r = await run(['profile', 'remove']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'name'/);
  });
});

describe('loose modes', () => {
  it.runIf(process.platform !== 'win32')('any command tightens a 0644 config file in a 0755 folder and warns once', async () => {
    const { chmodSync, statSync } = await import('node:fs');
    const path = openProfileStore(tmp.dir).path;
    chmodSync(tmp.dir, 0o755);
    chmodSync(path, 0o644);
    const r = await run(['profile', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: the config folder .* had mode 0755/);
    expect(r.stderr).toMatch(/warning: the config file .* had mode 0644, looser than it should be for API keys; changed it to 0600/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(tmp.dir).mode & 0o777).toBe(0o700);
    expect((await run(['profile', 'list'])).stderr).toBe('');
  });

  it('a key written by hand under another name ("api_key") is never printed whole, and the warning names the field that is read', async () => {
    await openProfileStore(tmp.dir).set('hand', { baseUrl: 'https://hand.example', api_key: KEY_B, webhookSecret: 'whsec_abcdefghijklmnop', timezone: 'UTC' });
    for (const argv of [['profile', 'list', '--json'], ['profile', 'show', 'hand', '--json'], ['profile', 'show', 'hand'], ['profile', 'list']]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(KEY_B);
      expect(r.stdout + r.stderr).not.toContain('whsec_abcdefghijklmnop');
      expect(r.stderr).toContain(`warning: profile "hand" in ${openProfileStore(tmp.dir).path} has "api_key", which socialpub does not read: the key goes in "apiKey" (rename the field, or run \`socialpub auth login --profile hand\`)`);
    }
    const shown = JSON.parse((await run(['profile', 'show', 'hand', '--json'])).stdout);
    expect(shown.preferences).toEqual({ api_key: '…bbbb', webhookSecret: '…mnop', timezone: 'UTC' });
    const row = JSON.parse((await run(['profile', 'list', '--json'])).stdout).find((p: { name: string }) => p.name === 'hand');
    expect(row).toEqual({ name: 'hand', current: false, baseUrl: 'https://hand.example', api: 'socialpub', key: null, api_key: '…bbbb', webhookSecret: '…mnop', timezone: 'UTC' });
  });

  it('never lets a preference named "key" replace the masked key', async () => {
    await openProfileStore(tmp.dir).set('odd', { apiKey: KEY_B, key: 'plaintext-leak', name: 'spoof' });
    const rows = JSON.parse((await run(['profile', 'list', '--json'])).stdout);
    expect(rows.find((p: { name: string }) => p.name === 'odd')).toEqual({ name: 'odd', current: false, baseUrl: null, api: 'socialpub', key: '…bbbb' });
  });
});

describe('an empty --profile', () => {
  it('is exit 2 naming --profile and the fix, before anything is read or written (auth login, profile show)', async () => {
    const before = readFileSync(openProfileStore(tmp.dir).path, 'utf8');
    for (const argv of [['-p', '', 'auth', 'login', '--with-key'], ['--profile=', 'profile', 'show'], ['--profile', ' ', 'posts', 'list']]) {
      const r = await runCli(argv, { configDir: tmp.dir, stdin: 'sk_test_charlie_0000000cccc' });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain('--profile');
      expect(r.stderr).toContain('socialpub profile list');
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(openProfileStore(tmp.dir).path, 'utf8')).toBe(before);
  });

  it('an empty SOCIALPUB_PROFILE still means unset: the current profile is used', async () => {
    const r = await run(['profile', 'show', '--json'], { SOCIALPUB_PROFILE: '' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe('alpha');
  });
});
