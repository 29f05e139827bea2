// Precedence of profile name, base URL and key: flag > environment > current profile > default.
import { describe, expect, it } from 'vitest';
import { maskKey, resolveProfile } from '../../src/config/resolve.js';
import { DEFAULT_BASE_URL, type Profile } from '../../src/config/types.js';
import { baseUrlProblem, isInsecureRemote } from '../../src/config/base-url.js';
import { profileNameProblem } from '../../src/config/types.js';
import { cacheRoot, configDir } from '../../src/config/paths.js';

function memoryStore(current: string | undefined, profiles: Record<string, Profile>) {
  return { current: () => current, get: (name: string) => (Object.hasOwn(profiles, name) ? profiles[name] : undefined) };
}

const profiles: Record<string, Profile> = {
  default: { baseUrl: 'https://default.example', apiKey: 'sk_default_key_0001' },
  work: { baseUrl: 'https://work.example/', apiKey: 'sk_work_key_0002' },
  ci: { baseUrl: 'https://ci.example', apiKey: 'sk_ci_key_0003' },
  bare: {},
};

interface Case {
  why: string;
  flagProfile?: string;
  flagBaseUrl?: string;
  env?: Record<string, string>;
  current?: string;
  expect: { name: string; nameSource: string; baseUrl: string; baseUrlSource: string; key: string | undefined; keySource: string };
}

const cases: Case[] = [
  { why: 'nothing set: default profile', expect: { name: 'default', nameSource: 'default', baseUrl: 'https://default.example', baseUrlSource: 'profile', key: 'sk_default_key_0001', keySource: 'profile' } },
  { why: 'current profile beats default', current: 'work', expect: { name: 'work', nameSource: 'current', baseUrl: 'https://work.example', baseUrlSource: 'profile', key: 'sk_work_key_0002', keySource: 'profile' } },
  { why: 'env profile beats current', current: 'work', env: { SOCIALPUB_PROFILE: 'ci' }, expect: { name: 'ci', nameSource: 'env', baseUrl: 'https://ci.example', baseUrlSource: 'profile', key: 'sk_ci_key_0003', keySource: 'profile' } },
  { why: 'flag profile beats env and current', flagProfile: 'default', current: 'work', env: { SOCIALPUB_PROFILE: 'ci' }, expect: { name: 'default', nameSource: 'flag', baseUrl: 'https://default.example', baseUrlSource: 'profile', key: 'sk_default_key_0001', keySource: 'profile' } },
  { why: 'env base URL beats the profile', current: 'work', env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9999/' }, expect: { name: 'work', nameSource: 'current', baseUrl: 'http://127.0.0.1:9999', baseUrlSource: 'env', key: 'sk_work_key_0002', keySource: 'profile' } },
  { why: 'flag base URL beats env', current: 'work', flagBaseUrl: 'https://flag.example', env: { SOCIALPUB_BASE_URL: 'https://env.example' }, expect: { name: 'work', nameSource: 'current', baseUrl: 'https://flag.example', baseUrlSource: 'flag', key: 'sk_work_key_0002', keySource: 'profile' } },
  { why: 'env key beats the stored key', current: 'work', env: { SOCIALPUB_API_KEY: 'sk_env_key_0004' }, expect: { name: 'work', nameSource: 'current', baseUrl: 'https://work.example', baseUrlSource: 'profile', key: 'sk_env_key_0004', keySource: 'env' } },
  { why: 'a profile without values: default base URL, no key', flagProfile: 'bare', expect: { name: 'bare', nameSource: 'flag', baseUrl: DEFAULT_BASE_URL, baseUrlSource: 'default', key: undefined, keySource: 'none' } },
  { why: 'an unknown profile: defaults, env key still applies', flagProfile: 'nope', env: { SOCIALPUB_API_KEY: 'sk_env_key_0004' }, expect: { name: 'nope', nameSource: 'flag', baseUrl: DEFAULT_BASE_URL, baseUrlSource: 'default', key: 'sk_env_key_0004', keySource: 'env' } },
  { why: 'empty env values count as unset', current: 'work', env: { SOCIALPUB_PROFILE: '', SOCIALPUB_API_KEY: ' ', SOCIALPUB_BASE_URL: '' }, expect: { name: 'work', nameSource: 'current', baseUrl: 'https://work.example', baseUrlSource: 'profile', key: 'sk_work_key_0002', keySource: 'profile' } },
  { why: 'every layer at once: flags and env win', flagProfile: 'ci', flagBaseUrl: 'https://flag.example', current: 'work', env: { SOCIALPUB_PROFILE: 'work', SOCIALPUB_API_KEY: 'sk_env_key_0004', SOCIALPUB_BASE_URL: 'https://env.example' }, expect: { name: 'ci', nameSource: 'flag', baseUrl: 'https://flag.example', baseUrlSource: 'flag', key: 'sk_env_key_0004', keySource: 'env' } },
];

describe('resolveProfile precedence', () => {
  it.each(cases)('$why', (c) => {
    const r = resolveProfile({ flagProfile: c.flagProfile, flagBaseUrl: c.flagBaseUrl, env: c.env ?? {}, store: memoryStore(c.current, profiles) });
    expect({ name: r.name, nameSource: r.nameSource, baseUrl: r.baseUrl, baseUrlSource: r.baseUrlSource, key: r.apiKey, keySource: r.keySource }).toEqual(c.expect);
  });

  it('says whether the resolved profile is saved, and is not fooled by Object.prototype names', () => {
    const store = memoryStore(undefined, profiles);
    expect(resolveProfile({ flagProfile: 'work', env: {}, store }).exists).toBe(true);
    expect(resolveProfile({ flagProfile: 'constructor', env: {}, store }).exists).toBe(false);
  });
});

describe('maskKey', () => {
  it('shows only the last four characters of a normal key', () => {
    expect(maskKey('sk_live_abcdefghijkl1234')).toBe('…1234');
    expect(maskKey(undefined)).toBe('(none)');
  });
  it('never shows a short key whole', () => {
    for (const key of ['a', 'abcd', 'abcdefg', 'abcdefghijk']) {
      const masked = maskKey(key);
      expect(masked.replace('…', '').length).toBeLessThan(key.length);
      expect(masked).not.toContain(key);
    }
  });
});

describe('names and URLs', () => {
  it('accepts plain profile names and refuses the rest', () => {
    for (const ok of ['default', 'acme-prod', 'ci_2', 'a.b', 'X']) expect(profileNameProblem(ok)).toBeUndefined();
    for (const bad of ['', ' ', 'a b', '-flag', '__proto__', 'x/y', 'a'.repeat(65)]) expect(profileNameProblem(bad)).toMatch(/not a valid profile name/);
  });
  it('accepts http(s) base URLs only', () => {
    expect(baseUrlProblem('https://api.example.com')).toBeUndefined();
    expect(baseUrlProblem('http://127.0.0.1:8787/')).toBeUndefined();
    expect(baseUrlProblem('api.example.com')).toMatch(/not a URL/);
    expect(baseUrlProblem('ftp://x.example')).toMatch(/http/);
    expect(baseUrlProblem('https://user:pw@x.example')).toMatch(/user name/);
    expect(isInsecureRemote('http://api.example.com')).toBe(true);
    expect(isInsecureRemote('http://127.0.0.1:8787')).toBe(false);
    expect(isInsecureRemote('https://api.example.com')).toBe(false);
  });
  it('puts the config folder under SOCIALPUB_CONFIG_DIR, else the platform folder under HOME', () => {
    expect(configDir({ SOCIALPUB_CONFIG_DIR: '/tmp/sp-conf' })).toBe('/tmp/sp-conf');
    expect(configDir({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.config/socialpub');
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/socialpub');
    expect(configDir({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Preferences/socialpub');
  });
  it('reads a leading ~ in SOCIALPUB_CONFIG_DIR as the home folder (no shell expanded it), not as a folder named "~"', () => {
    expect(configDir({ HOME: '/home/u', SOCIALPUB_CONFIG_DIR: '~/sp' }, 'linux')).toBe('/home/u/sp');
    expect(configDir({ HOME: '/home/u', SOCIALPUB_CONFIG_DIR: '~' }, 'linux')).toBe('/home/u');
    expect(configDir({ HOME: '/home/u', SOCIALPUB_CONFIG_DIR: '/srv/~x' }, 'linux')).toBe('/srv/~x');
  });
  it('ignores an XDG folder that is empty or relative, as the XDG rules say (keys would land under the working folder)', () => {
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: 'rel' }, 'linux')).toBe('/home/u/.config/socialpub');
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: './conf' }, 'linux')).toBe('/home/u/.config/socialpub');
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '' }, 'linux')).toBe('/home/u/.config/socialpub');
    expect(cacheRoot({ HOME: '/home/u', XDG_CACHE_HOME: 'rel' }, 'linux')).toEqual({ dir: '/home/u/.cache/socialpub', within: '/home/u' });
    expect(cacheRoot({ HOME: '/home/u', XDG_CACHE_HOME: '/c' }, 'linux')).toEqual({ dir: '/c/socialpub', within: '/c' });
  });
});
