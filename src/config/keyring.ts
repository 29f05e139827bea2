// The operating system's credential store as the config layer sees it: three calls on one
// entry per profile. The real one (system-keyring.ts) wraps a native binding; tests use a fake.

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
