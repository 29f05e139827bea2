// Where socialpub keeps files: profiles in SOCIALPUB_CONFIG_DIR, else the platform's config
// folder; compiled code in the platform's cache folder.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

const homeOf = (env: Env) => env.HOME || env.USERPROFILE || homedir();

// The XDG base-directory rules: a relative path in XDG_CONFIG_HOME or XDG_CACHE_HOME is invalid
// and ignored (else the keys would be saved under whatever folder the command ran in).
const xdg = (value: string | undefined): string | undefined => (value && isAbsolute(value) ? value : undefined);

export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const home = homeOf(env);
  // Absolute, so that messages and `auth status` name the real file. A leading "~" that no shell
  // expanded (a .env file, a systemd unit) means the home folder, not a folder named "~" here.
  if (env.SOCIALPUB_CONFIG_DIR) return resolve(env.SOCIALPUB_CONFIG_DIR.replace(/^~(?=$|[\\/])/, () => home));
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'socialpub');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'socialpub', 'Config');
  return join(xdg(env.XDG_CONFIG_HOME) ?? join(home, '.config'), 'socialpub');
}

export const CONFIG_FILE = 'config.json';

/**
 * The platform's per-user cache folder for socialpub (src/compile-cache.ts), and the existing
 * folder it is made in: the home folder, or XDG_CACHE_HOME / LOCALAPPDATA when set.
 */
export function cacheRoot(env: Env, platform: NodeJS.Platform = process.platform): { dir: string; within: string } {
  const home = homeOf(env);
  if (platform === 'darwin') return { dir: join(home, 'Library', 'Caches', 'socialpub'), within: home };
  if (platform === 'win32') return env.LOCALAPPDATA ? { dir: join(env.LOCALAPPDATA, 'socialpub', 'Cache'), within: env.LOCALAPPDATA } : { dir: join(home, 'AppData', 'Local', 'socialpub', 'Cache'), within: home };
  const cache = xdg(env.XDG_CACHE_HOME);
  return cache ? { dir: join(cache, 'socialpub'), within: cache } : { dir: join(home, '.cache', 'socialpub'), within: home };
}
