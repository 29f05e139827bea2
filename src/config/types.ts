import type { Keyring } from './keyring.js';
// Profiles: one per workspace, each with its base URL, API key and preferences.

export interface Profile {
  baseUrl?: string;
  /** The key, when it is kept in this file (0600). */
  apiKey?: string;
  /** "keyring": the key is in the system's credential store, not in this file. */
  keyStorage?: 'keyring';
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
}

/** Where a profile points when nothing says otherwise: a local sandbox (`socialpub sandbox`). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
export const DEFAULT_PROFILE = 'default';
