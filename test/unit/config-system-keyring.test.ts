// The real keyring wrapper around @napi-rs/keyring, with the binding replaced: no session bus on
// Linux means "unavailable" at once (the binding is not even loaded), a missing module and a
// keyring that never answers become KeyringUnavailableError, so login falls back to the file.
import type * as KeyringBinding from '@napi-rs/keyring';
import { describe, expect, it } from 'vitest';
import { KeyringUnavailableError } from '../../src/config/types.js';
import { systemKeyring } from '../../src/config/system-keyring.js';

function recordingBinding(behaviour: (op: string) => Promise<unknown>) {
  const made: unknown[][] = [];
  class AsyncEntry {
    constructor(...args: unknown[]) {
      made.push(args);
    }
    getPassword() {
      return behaviour('get') as Promise<string | null>;
    }
    setPassword() {
      return behaviour('set') as Promise<void>;
    }
    deleteCredential() {
      return behaviour('delete') as Promise<boolean>;
    }
  }
  return { made, load: async () => ({ AsyncEntry }) as unknown as typeof KeyringBinding };
}

describe('systemKeyring', () => {
  it('on Linux without a session bus, is unavailable without loading the native module', async () => {
    let loaded = false;
    const ring = systemKeyring({ platform: 'linux', env: {}, load: async () => ((loaded = true), Promise.reject(new Error('x'))) });
    await expect(ring.set('a', 'secret')).rejects.toThrow(KeyringUnavailableError);
    await expect(ring.get('a')).rejects.toThrow(/no D-Bus session/);
    expect(loaded).toBe(false);
    expect(ring.name).toBe('the Secret Service');
  });

  it('a missing optional module means unavailable, not a crash', async () => {
    const ring = systemKeyring({ platform: 'darwin', load: () => Promise.reject(new Error("Cannot find module '@napi-rs/keyring'")) });
    await expect(ring.get('a')).rejects.toThrow(/optional module @napi-rs\/keyring is not installed/);
    expect(ring.name).toBe('the macOS Keychain');
  });

  it('a keyring that never answers is given up on after the time bound', async () => {
    const b = recordingBinding(() => new Promise(() => {}));
    const ring = systemKeyring({ platform: 'win32', timeoutMs: 5, load: b.load });
    await expect(ring.set('a', 'secret')).rejects.toThrow(/the Windows Credential Manager did not answer within 0.005 s/);
  });

  it('pins the Secret Service on Linux (never the kernel keyring, which forgets at logout) and names the entry', async () => {
    const b = recordingBinding(async (op) => (op === 'get' ? 'the-secret' : op === 'delete' ? true : undefined));
    const ring = systemKeyring({ platform: 'linux', env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' }, load: b.load });
    expect(await ring.get('default@/cfg')).toBe('the-secret');
    expect(b.made[0]).toEqual(['socialpub', 'default@/cfg', { linux: { store: 'secret-service' } }]);
    expect(await ring.delete('default@/cfg')).toBe(true);
  });

  it('a platform failure is reported as unavailable with its words', async () => {
    const b = recordingBinding(() => Promise.reject(new Error('Platform failure: locked collection')));
    const ring = systemKeyring({ platform: 'linux', env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' }, load: b.load });
    await expect(ring.get('a')).rejects.toThrow(/the Secret Service failed: Platform failure: locked collection/);
  });
});
