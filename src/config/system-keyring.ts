// The system's credential store through @napi-rs/keyring, an optional dependency: macOS
// Keychain, Windows Credential Manager, the Secret Service on Linux. The key crosses into the
// native module as a function argument, never as a command-line argument of a helper process
// (`security add-generic-password -w KEY` or `cmdkey /pass:` would show it in process lists).
// An install without the module, a Linux without a session bus (CI, SSH) or a keyring that
// does not answer in time all become KeyringUnavailableError, so callers fall back to the file.
import type * as KeyringBinding from '@napi-rs/keyring';
import { KEYRING_SERVICE, KeyringUnavailableError, type Keyring } from './types.js';

type Binding = typeof KeyringBinding;

/** Longer than a healthy keyring takes (tens of ms), short enough not to look like a hang. */
export const KEYRING_TIMEOUT_MS = 5_000;

export function keyringName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'the Windows Credential Manager';
  return 'the Secret Service';
}

export interface SystemKeyringOptions {
  platform?: NodeJS.Platform;
  timeoutMs?: number;
  /** The environment the native module sees: the process's own (tests pass another). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Loads the binding; tests pass one that fails or never answers. */
  load?: () => Promise<Pick<Binding, 'AsyncEntry'>>;
}

export function systemKeyring(options: SystemKeyringOptions = {}): Keyring {
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? KEYRING_TIMEOUT_MS;
  const env = options.env ?? process.env;
  let binding: Promise<Pick<Binding, 'AsyncEntry'>> | undefined;
  const load = () =>
    (binding ??= (options.load ?? (() => import('@napi-rs/keyring')))().catch((err: unknown) => {
      throw new KeyringUnavailableError('the optional module @napi-rs/keyring is not installed', err);
    }));

  async function call<T>(account: string, op: (entry: InstanceType<Binding['AsyncEntry']>, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) {
      // Without a session bus there is no Secret Service; the binding would say so too, but
      // this is the common case (CI, SSH, containers) and needs no native code at all.
      throw new KeyringUnavailableError('no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service');
    }
    const { AsyncEntry } = await load();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new KeyringUnavailableError(`${keyringName(platform)} did not answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
    });
    try {
      // Pinned to the Secret Service on Linux: the kernel keyring, the binding's other
      // choice, forgets everything at logout or reboot.
      const entry = new AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
      return await Promise.race([op(entry, controller.signal), late]);
    } catch (err) {
      if (err instanceof KeyringUnavailableError) throw err;
      throw new KeyringUnavailableError(`${keyringName(platform)} failed: ${err instanceof Error ? err.message : String(err)}`, err);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    name: keyringName(platform),
    get: (account) => call(account, async (e, signal) => (await e.getPassword(signal)) ?? undefined),
    set: (account, secret) => call(account, (e, signal) => e.setPassword(secret, signal)),
    delete: (account) => call(account, (e, signal) => e.deleteCredential(signal)),
  };
}
