// Where profiles live: SOCIALPUB_CONFIG_DIR, else the platform's config folder.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function configDir(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  // Absolute, so that messages and `auth status` name the real file.
  if (env.SOCIALPUB_CONFIG_DIR) return resolve(env.SOCIALPUB_CONFIG_DIR);
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'socialpub');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'socialpub', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'socialpub');
}

export const CONFIG_FILE = 'config.json';
