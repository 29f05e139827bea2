// Profiles on disk. Reads parse the JSON file directly (cheap, on every command's path);
// writes go through conf, loaded only when something is saved, which writes atomically.
// The file is kept 0600 in a 0700 folder, also when it already existed with looser modes.
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profile, ProfileStore } from './types.js';
import { CONFIG_FILE } from './paths.js';

interface FileShape {
  current?: string;
  profiles?: Record<string, Profile>;
}

function readFile(path: string): FileShape {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as FileShape) : {};
  } catch {
    throw new Error(`the config file ${path} is not valid JSON; fix or remove it`);
  }
}

export function tightenModes(dir: string, path: string): void {
  if (process.platform === 'win32') return;
  if (existsSync(dir)) chmodSync(dir, 0o700);
  if (existsSync(path)) chmodSync(path, 0o600);
}

export function openProfileStore(dir: string): ProfileStore {
  const path = join(dir, CONFIG_FILE);
  let cache: FileShape | undefined;
  const data = () => (cache ??= readFile(path));

  const save = async (next: FileShape) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    tightenModes(dir, path);
    const { default: Conf } = await import('conf');
    const conf = new Conf<FileShape>({
      cwd: dir,
      configName: CONFIG_FILE.replace(/\.json$/, ''),
      projectName: 'socialpub',
      projectSuffix: '',
      configFileMode: 0o600,
    });
    conf.store = next;
    tightenModes(dir, path);
    cache = next;
  };

  return {
    dir,
    path,
    current: () => data().current,
    names: () => Object.keys(data().profiles ?? {}).sort(),
    get: (name) => data().profiles?.[name],
    async set(name, profile) {
      const d = data();
      await save({ ...d, profiles: { ...(d.profiles ?? {}), [name]: profile } });
    },
    async remove(name) {
      const d = data();
      if (!d.profiles?.[name]) return false;
      const { [name]: _removed, ...rest } = d.profiles;
      await save({ ...d, profiles: rest, current: d.current === name ? undefined : d.current });
      return true;
    },
    async use(name) {
      await save({ ...data(), current: name });
    },
  };
}
