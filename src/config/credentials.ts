// Where a profile's API key lives (secrets never in a flag value, files 0600): the system's credential store when there
// is one, else the 0600 config file. The config file records which (`keyStorage: "keyring"`),
// so a read goes straight to the right place and a key already in the file keeps working.
import { KeyringUnavailableError, keyringAccount, type Keyring, type Profile, type ProfileStore } from './types.js';

export type KeyStorage = 'keyring' | 'file';

/** One place a key can be kept; both kinds work on the same profiles file. */
export interface CredentialStore {
  readonly kind: KeyStorage;
  /** For messages: "the Secret Service" or the config file's path. */
  readonly location: string;
  read(profile: string): Promise<string | undefined>;
  /** Saves the key (and `change`, applied to the profile in the same write of the file). */
  write(profile: string, key: string, change?: (profile: Profile) => Profile): Promise<void>;
  /** True when there was a key to delete. */
  delete(profile: string): Promise<boolean>;
}

const without = (profile: Profile | undefined, ...fields: string[]): Profile => {
  const out: Profile = { ...profile };
  for (const f of fields) delete out[f];
  return out;
};

/** Today's behaviour: the key in the profile, in the 0600 file. */
export function fileCredentials(store: ProfileStore): CredentialStore {
  return {
    kind: 'file',
    location: store.path,
    read: async (name) => store.get(name)?.apiKey,
    async write(name, key, change = (p) => p) {
      await store.update(name, (p) => change({ ...without(p, 'keyStorage'), apiKey: key }));
    },
    async delete(name) {
      if (store.get(name)?.apiKey === undefined) return false;
      await store.update(name, (p) => without(p, 'apiKey'));
      return true;
    },
  };
}

/** The key in the system's credential store; the profile only says `keyStorage: "keyring"`. */
export function keyringCredentials(store: ProfileStore, keyring: Keyring): CredentialStore {
  const account = (name: string) => keyringAccount(name, store.dir);
  return {
    kind: 'keyring',
    location: keyring.name,
    read: (name) => keyring.get(account(name)),
    async write(name, key, change = (p) => p) {
      await keyring.set(account(name), key);
      try {
        // A key the file held before moves out of it.
        await store.update(name, (p) => change({ ...without(p, 'apiKey'), keyStorage: 'keyring' }));
      } catch (err) {
        // Without the marker nothing would point to the entry: take it back out.
        await keyring.delete(account(name)).catch(() => false);
        throw err;
      }
    },
    async delete(name) {
      const deleted = await keyring.delete(account(name));
      if (store.get(name)?.keyStorage !== undefined) await store.update(name, (p) => without(p, 'keyStorage'));
      return deleted;
    },
  };
}

/** Which store holds a saved profile's key (the file unless the profile says otherwise). */
export function storageOf(profile: Profile | undefined): KeyStorage {
  return profile?.keyStorage === 'keyring' ? 'keyring' : 'file';
}

export interface SavedKey {
  storage: KeyStorage;
  /** The keyring's name or the file's path. */
  location: string;
  /** Why the keyring was not used, when it was wanted and failed. */
  fallbackReason?: string;
  /** The keyring entry of an earlier login that could not be deleted (the keyring failed), and why. */
  staleEntry?: { account: string; reason: string };
}

/**
 * Saves a key where it belongs: the keyring unless `insecureStorage` (or no keyring works here),
 * else the file. A copy left in the other place by an earlier login is removed.
 */
export async function saveKey(
  store: ProfileStore,
  keyring: Keyring | undefined,
  name: string,
  key: string,
  options: { insecureStorage: boolean; change?: (profile: Profile) => Profile },
): Promise<SavedKey> {
  const before = storageOf(store.get(name));
  let fallbackReason: string | undefined;
  if (!options.insecureStorage) {
    if (!keyring) fallbackReason = 'no system credential store is available';
    else {
      try {
        await keyringCredentials(store, keyring).write(name, key, options.change);
        return { storage: 'keyring', location: keyring.name };
      } catch (err) {
        if (!(err instanceof KeyringUnavailableError)) throw err;
        fallbackReason = err.message;
      }
    }
  }
  const file = fileCredentials(store);
  await file.write(name, key, options.change);
  // An old key in the keyring would otherwise outlive this login; failing to reach it is only
  // worth a note (the caller's), the new key is saved.
  let staleEntry: SavedKey['staleEntry'];
  if (before === 'keyring' && keyring) {
    const account = keyringAccount(name, store.dir);
    await keyring.delete(account).catch((err: unknown) => {
      staleEntry = { account, reason: err instanceof Error ? err.message : String(err) };
    });
  }
  return { storage: 'file', location: file.location, ...(fallbackReason ? { fallbackReason } : {}), ...(staleEntry ? { staleEntry } : {}) };
}

/** Reads the key of a saved profile from wherever it is. */
export async function readKey(store: ProfileStore, keyring: Keyring | undefined, name: string): Promise<string | undefined> {
  if (storageOf(store.get(name)) === 'file') return fileCredentials(store).read(name);
  if (!keyring) throw new KeyringUnavailableError('no system credential store is available');
  return keyringCredentials(store, keyring).read(name);
}

/** Deletes the key of a profile from wherever it is; says where it was. */
export async function deleteKey(store: ProfileStore, keyring: Keyring | undefined, name: string): Promise<{ deleted: boolean; location: string }> {
  if (storageOf(store.get(name)) === 'file') {
    const file = fileCredentials(store);
    return { deleted: await file.delete(name), location: file.location };
  }
  if (!keyring) throw new KeyringUnavailableError('no system credential store is available');
  const ring = keyringCredentials(store, keyring);
  return { deleted: await ring.delete(name), location: ring.location };
}
