// Profiles: one per workspace, each with its base URL, API key and preferences; their names;
// and the system's credential store as the config layer sees it.
import type { Dialect } from '../wire/dialects.js';

export interface Profile {
  baseUrl?: string;
  /** The key, when it is kept in this file (0600). */
  apiKey?: string;
  /** "keyring": the key is in the system's credential store, not in this file. */
  keyStorage?: 'keyring';
  /** Which API the service speaks (contract 7.5); absent: `socialpub`. */
  api?: string;
  /** How `auth login` chose `api`: given with --api (`set`) or told apart by one read (`detected`). */
  apiSource?: 'set' | 'detected';
  /** Free-form preferences (default output format, time zone, ...). */
  [preference: string]: unknown;
}

export interface ProfileStore {
  /** Folder that holds the config file (0700). */
  readonly dir: string;
  /** The system's credential store, or undefined where there is none (tests, some installs). */
  readonly keyring: Keyring | undefined;
  /** The config file itself (0600). */
  readonly path: string;
  current(): string | undefined;
  names(): string[];
  get(name: string): Profile | undefined;
  /** Creates or replaces a profile; the file is written 0600 in a 0700 folder. */
  set(name: string, profile: Profile): Promise<void>;
  /**
   * Changes one profile starting from the file as it is on disk right now (another process may
   * have written since this one read it); `change` gets undefined for a new profile.
   */
  update(name: string, change: (profile: Profile | undefined) => Profile): Promise<Profile>;
  /** Returns false when there was no such profile. Clears `current` when it pointed there. */
  remove(name: string): Promise<boolean>;
  /** Makes an existing profile the current one; throws when there is no such profile. */
  use(name: string): Promise<void>;
}

/** `profile`: in the config file; `keyring`: in the system's credential store. */
export type KeySource = 'env' | 'profile' | 'keyring' | 'none';
export type ValueSource = 'flag' | 'env' | 'profile' | 'default';
/**
 * Where the dialect of a run came from: SOCIALPUB_API (`env`), saved by `auth login --api`
 * (`set`), told apart at login (`detected`), written in the profile by other means (`profile`),
 * or nothing said (`default`: socialpub).
 */
export type ApiSource = 'env' | 'set' | 'detected' | 'profile' | 'default';

export interface ResolvedProfile {
  name: string;
  nameSource: ValueSource | 'current';
  baseUrl: string;
  baseUrlSource: ValueSource;
  apiKey: string | undefined;
  keySource: KeySource;
  /** Why a key the profile has could not be read (a keyring that cannot be reached). */
  keyProblem?: string;
  /** Whether a profile of that name exists in the store. */
  exists: boolean;
  /** The API the service speaks: the client translates every endpoint to it. */
  api: Dialect;
  apiSource: ApiSource;
}

/** Where a profile points when nothing says otherwise: a local sandbox (`socialpub sandbox`). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
export const DEFAULT_PROFILE = 'default';

// Profile names end up in a JSON object key and on command lines: keep them plain.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why a name cannot be a profile name, or undefined when it can. */
export function profileNameProblem(name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  return `"${name}" is not a valid profile name: use 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
}

// The operating system's credential store: three calls on one entry per profile. The real one
// (system-keyring.ts) wraps a native binding; tests use a fake.
export interface Keyring {
  /** What the user knows it as: "the macOS Keychain", "the Secret Service", … */
  readonly name: string;
  /** The secret of an account, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** True when there was an entry to delete. */
  delete(account: string): Promise<boolean>;
}

/** The keyring cannot be used here (none installed, no session bus, locked, too slow). */
export class KeyringUnavailableError extends Error {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause === undefined ? undefined : { cause });
    this.name = 'KeyringUnavailableError';
  }
}

/** Entries are named by service and account; the folder keeps two config folders apart. */
export const KEYRING_SERVICE = 'socialpub';
export function keyringAccount(profile: string, configDir: string): string {
  return `${profile}@${configDir}`;
}
