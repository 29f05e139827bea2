// The profiles file on disk: 0600 in a 0700 folder (also when they existed looser), atomic
// whole-file writes, never through a link, unknown fields kept, nothing taken from the environment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openProfileStore } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/run-cli.js';

const posix = process.platform !== 'win32';
const root = process.getuid?.() === 0;
const mode = (p: string) => statSync(p).mode & 0o777;

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => {
  tmp = tempConfigDir();
});
afterEach(() => tmp.cleanup());

describe('profile store', () => {
  it('creates the folder 0700 and the file 0600', async () => {
    const dir = join(tmp.dir, 'nested', 'socialpub');
    const store = openProfileStore(dir);
    await store.set('default', { baseUrl: 'https://x.example', apiKey: 'sk_test_key_0001' });
    if (posix) {
      expect(mode(dir)).toBe(0o700);
      expect(mode(store.path)).toBe(0o600);
    }
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ profiles: { default: { baseUrl: 'https://x.example', apiKey: 'sk_test_key_0001' } } });
  });

  it.runIf(posix)('tightens a pre-existing 0644 file in a 0755 folder on write', async () => {
    const dir = join(tmp.dir, 'loose');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { old: { apiKey: 'sk_old_key_00001' } } }), { mode: 0o644 });
    chmodSync(join(dir, 'config.json'), 0o644);
    const warnings: string[] = [];
    const store = openProfileStore(dir, { warn: (m) => warnings.push(m) });
    await store.set('new', { apiKey: 'sk_new_key_00002' });
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(store.names()).toEqual(['new', 'old']);
    expect(warnings.join('\n')).toMatch(/0755.*0700/);
    expect(warnings.join('\n')).toMatch(/0644.*0600/);
  });

  it.runIf(posix)('tightens (and warns about) loose modes on the first read too', () => {
    const dir = join(tmp.dir, 'loose-read');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ current: 'a', profiles: { a: { apiKey: 'sk_a_key_000001' } } }));
    chmodSync(join(dir, 'config.json'), 0o664);
    const warnings: string[] = [];
    const store = openProfileStore(dir, { warn: (m) => warnings.push(m) });
    expect(store.current()).toBe('a');
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(warnings).toHaveLength(2);
    // A second store sees nothing left to fix.
    const again: string[] = [];
    openProfileStore(dir, { warn: (m) => again.push(m) }).names();
    expect(again).toEqual([]);
  });

  it.runIf(posix)('leaves a folder alone on read when it holds no config file', () => {
    const dir = join(tmp.dir, 'empty');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(openProfileStore(dir).names()).toEqual([]);
    expect(mode(dir)).toBe(0o755);
  });

  it('keeps unknown fields and preferences, and re-reads the file before each write', async () => {
    const store = openProfileStore(tmp.dir);
    writeFileSync(store.path, JSON.stringify({ version: 7, profiles: { a: { apiKey: 'sk_a_key_000001', tz: 'Europe/Paris' } } }));
    expect(store.get('a')).toEqual({ apiKey: 'sk_a_key_000001', tz: 'Europe/Paris' });
    // Another process adds a profile after this one read the file.
    const other = openProfileStore(tmp.dir);
    await other.set('b', { apiKey: 'sk_b_key_000002' });
    await store.update('a', (p) => ({ ...p, baseUrl: 'https://a.example' }));
    const file = JSON.parse(readFileSync(store.path, 'utf8'));
    expect(file.version).toBe(7);
    expect(file.profiles.a).toEqual({ apiKey: 'sk_a_key_000001', tz: 'Europe/Paris', baseUrl: 'https://a.example' });
    expect(file.profiles.b).toEqual({ apiKey: 'sk_b_key_000002' });
  });

  it('removes a profile, clearing current when it pointed there', async () => {
    const store = openProfileStore(tmp.dir);
    await store.set('a', { apiKey: 'sk_a_key_000001' });
    await store.set('b', {});
    await store.use('a');
    expect(store.current()).toBe('a');
    expect(await store.remove('a')).toBe(true);
    expect(await store.remove('a')).toBe(false);
    expect(store.current()).toBeUndefined();
    expect(openProfileStore(tmp.dir).names()).toEqual(['b']);
  });

  it('refuses to make a missing profile current, and refuses bad names', async () => {
    const store = openProfileStore(tmp.dir);
    await expect(store.use('ghost')).rejects.toThrow(/no profile named "ghost"/);
    await expect(store.set('__proto__', {})).rejects.toThrow(/not a valid profile name/);
    await expect(store.set('a b', {})).rejects.toThrow(/not a valid profile name/);
  });

  it('does not mistake Object.prototype members for profiles', () => {
    const store = openProfileStore(tmp.dir);
    writeFileSync(store.path, JSON.stringify({ profiles: { a: {} } }));
    expect(store.get('constructor')).toBeUndefined();
    expect(store.get('toString')).toBeUndefined();
    expect(store.get('a')).toEqual({});
  });

  it('leaves out fields of the wrong type instead of crashing on them, and says which', () => {
    const warnings: string[] = [];
    const store = openProfileStore(tmp.dir, { warn: (m) => warnings.push(m) });
    writeFileSync(store.path, JSON.stringify({ current: 5, profiles: { a: { apiKey: 12, baseUrl: ['x'] }, b: 'nonsense' } }), { mode: 0o600 });
    expect(store.current()).toBeUndefined();
    expect(store.names()).toEqual(['a']);
    expect(store.get('a')).toEqual({});
    expect(warnings).toEqual([
      `"current" in ${store.path} is a number, not a profile name; it is ignored`,
      `"baseUrl" of profile "a" in ${store.path} is an array, which socialpub cannot use; it is ignored: fix it in an editor`,
      `"apiKey" of profile "a" in ${store.path} is a number, which socialpub cannot use; it is ignored: fix it in an editor`,
      `profile "b" in ${store.path} is a string, not an object; it is ignored: fix it in an editor, or run \`socialpub profile remove b\``,
    ]);
  });

  it('keeps what it could not use when it saves another change (a hand-edit is not lost to a login)', async () => {
    const store = openProfileStore(tmp.dir);
    const written = { current: 5, version: 3, profiles: { work: 'http://example.com', old: { baseUrl: 5, apiKey: 'sk_old_key_00001', future: { x: 1 } }, gone: {} } };
    writeFileSync(store.path, JSON.stringify(written));
    await store.set('new', { apiKey: 'sk_new_key_00002' });
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ ...written, profiles: { ...written.profiles, new: { apiKey: 'sk_new_key_00002' } } });
    // A profile the change rewrites is written as the change made it (fields of other versions kept).
    await store.update('old', ({ apiKey: _k, ...p } = {}) => p);
    await store.remove('gone');
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles).toEqual({ work: 'http://example.com', old: { future: { x: 1 } }, new: { apiKey: 'sk_new_key_00002' } });
  });

  it('removes an entry it cannot read: that is the fix the warning gives', async () => {
    const store = openProfileStore(tmp.dir);
    writeFileSync(store.path, JSON.stringify({ current: 'work', profiles: { work: 'http://example.com', a: {} } }));
    expect(store.get('work')).toBeUndefined();
    expect(await store.remove('work')).toBe(true);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ profiles: { a: {} } });
    expect(await store.remove('work')).toBe(false);
  });

  it('refuses to save over a file whose top level or profiles it cannot read, and changes nothing', async () => {
    for (const text of ['["a"]', '{"profiles": ["a", "b"]}']) {
      const warnings: string[] = [];
      const store = openProfileStore(tmp.dir, { warn: (m) => warnings.push(m) });
      writeFileSync(store.path, text, { mode: 0o600 });
      expect(store.names()).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/is an array, not|holds an array, not an object/);
      await expect(store.set('new', {})).rejects.toThrow(/cannot save the profiles: .*an array.*; nothing was saved/);
      expect(readFileSync(store.path, 'utf8')).toBe(text);
    }
  });

  it('reads a file an editor saved with a byte-order mark', () => {
    const store = openProfileStore(tmp.dir);
    writeFileSync(store.path, '\uFEFF' + JSON.stringify({ current: 'a', profiles: { a: { apiKey: 'sk_a_key_000001' } } }), { mode: 0o600 });
    expect(store.current()).toBe('a');
    expect(store.get('a')).toEqual({ apiKey: 'sk_a_key_000001' });
  });

  it('names the file, the line and the column when it is not JSON, without quoting the line (it may hold a key)', async () => {
    const store = openProfileStore(tmp.dir);
    const text = '{\n\t"profiles": {\n\t\t"a": { "apiKey": "sk_live_secret_0001" }\n\t},\n}\n';
    writeFileSync(store.path, text);
    const message = `the config file ${store.path} is not valid JSON: line 5, column 1: trailing comma before "}". Fix it in an editor, or move it aside (mv ${store.path} ${store.path}.bak) and run \`socialpub auth login\` to start a new one`;
    expect(() => store.names()).toThrow(message);
    await expect(store.set('b', {})).rejects.toThrow(message);
    expect(readFileSync(store.path, 'utf8')).toBe(text);
  });
});

describe('profile store: links and folders it cannot use', () => {
  it.runIf(posix)('does not follow a symlinked config.json out of the folder to change modes: it warns', () => {
    const outside = join(tmp.dir, 'dotfiles', 'socialpub.json');
    mkdirSync(join(tmp.dir, 'dotfiles'));
    writeFileSync(outside, JSON.stringify({ profiles: { a: { apiKey: 'sk_a_key_000001' } } }));
    chmodSync(outside, 0o644);
    const dir = join(tmp.dir, 'conf');
    mkdirSync(dir, { mode: 0o700 });
    symlinkSync(outside, join(dir, 'config.json'));
    const warnings: string[] = [];
    const store = openProfileStore(dir, { warn: (m) => warnings.push(m) });
    expect(store.names()).toEqual(['a']);
    expect(mode(outside)).toBe(0o644);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/config\.json is a symbolic link to something with mode 0644.*left alone.*chmod 600/);
  });

  it.runIf(posix)('refuses to save through a symlinked config.json: nothing written, the target untouched', async () => {
    const outside = join(tmp.dir, 'dotfiles', 'socialpub.json');
    mkdirSync(join(tmp.dir, 'dotfiles'));
    const before = JSON.stringify({ profiles: { a: { apiKey: 'sk_a_key_000001' } } });
    writeFileSync(outside, before);
    chmodSync(outside, 0o644);
    const dir = join(tmp.dir, 'conf');
    mkdirSync(dir, { mode: 0o700 });
    symlinkSync(outside, join(dir, 'config.json'));
    const store = openProfileStore(dir);
    const err = await store.set('b', { apiKey: 'sk_b_key_000002' }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `cannot save the config file ${join(dir, 'config.json')}: it is a symbolic link (to ${outside}), and socialpub does not write keys through links; nothing was saved. Replace the link with a copy of the file it points to, or set SOCIALPUB_CONFIG_DIR to another folder`,
    );
    expect(readFileSync(outside, 'utf8')).toBe(before);
    expect(mode(outside)).toBe(0o644);
    expect(readdirSync(join(tmp.dir, 'dotfiles'))).toEqual(['socialpub.json']);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
  });

  it.runIf(posix)('does not chmod through a symlinked config folder either, and says so once however often it saves', async () => {
    const real = join(tmp.dir, 'real');
    mkdirSync(real);
    chmodSync(real, 0o755);
    writeFileSync(join(real, 'config.json'), JSON.stringify({ profiles: { a: {} } }), { mode: 0o600 });
    const dir = join(tmp.dir, 'link');
    symlinkSync(real, dir);
    const warnings: string[] = [];
    const store = openProfileStore(dir, { warn: (m) => warnings.push(m) });
    expect(store.names()).toEqual(['a']);
    // A login saves twice (the key, then the current profile).
    await store.set('b', { apiKey: 'sk_b_key_000002' });
    await store.use('b');
    expect(mode(real)).toBe(0o755);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/config folder .*link is a symbolic link .*0755/);
  });

  it('a file where the folder should be (ENOTDIR): reads find nothing, a write says what is wrong and the fix', async () => {
    writeFileSync(join(tmp.dir, 'plain-file'), 'x');
    const dir = join(tmp.dir, 'plain-file', 'socialpub');
    const store = openProfileStore(dir);
    expect(store.names()).toEqual([]);
    const err = await store.set('a', { apiKey: 'sk_a_key_000001' }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^cannot save the config file .*config\.json: a part of .* is a file, not a folder \(ENOTDIR\); .*SOCIALPUB_CONFIG_DIR/);
  });

  it.runIf(posix && !root)('a folder this user cannot write (EACCES): no raw config.json.tmp error, the fix instead', async () => {
    const dir = join(tmp.dir, 'locked');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: {} }), { mode: 0o600 });
    chmodSync(dir, 0o500);
    try {
      const err = await openProfileStore(dir).set('a', {}).catch((e: unknown) => e as Error);
      expect((err as Error).message).toMatch(/^cannot save the config file .*: the folder .*locked .*not writable by this user \(EACCES\); .*SOCIALPUB_CONFIG_DIR/);
      expect((err as Error).message).not.toMatch(/tmp-/);
      expect(readdirSync(dir)).toEqual(['config.json']);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  // Root may write almost anywhere, so the run above is for other users; sysfs refuses even root.
  it.runIf(process.platform === 'linux' && root && existsSync('/sys/kernel'))('a folder even root cannot create (EPERM under /sys): the fix instead', async () => {
    const err = await openProfileStore('/sys/socialpub-config-test').set('a', {}).catch((e: unknown) => e as Error);
    expect((err as Error).message).toMatch(/^cannot save the config file \/sys\/socialpub-config-test\/config\.json: .*not writable by this user \((EPERM|EACCES)\); .*SOCIALPUB_CONFIG_DIR/);
  });
});
