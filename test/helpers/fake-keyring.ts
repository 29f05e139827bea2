// A stand-in for the system credential store: entries in a Map, every call recorded, and a
// switch that makes it unavailable the way a Linux without a Secret Service is.
import { KeyringUnavailableError, type Keyring } from '../../src/config/types.js';

export interface FakeKeyring extends Keyring {
  entries: Map<string, string>;
  calls: string[];
  /** A reason makes every call fail with it; undefined makes the keyring work. */
  unavailable: string | undefined;
}

export function fakeKeyring(name = 'the Fake Keyring'): FakeKeyring {
  const ring: FakeKeyring = {
    name,
    entries: new Map(),
    calls: [],
    unavailable: undefined,
    async get(account) {
      check('get', account);
      return ring.entries.get(account);
    },
    async set(account, secret) {
      check('set', account);
      ring.entries.set(account, secret);
    },
    async delete(account) {
      check('delete', account);
      return ring.entries.delete(account);
    },
  };
  function check(op: string, account: string): void {
    ring.calls.push(`${op} ${account}`);
    if (ring.unavailable) throw new KeyringUnavailableError(ring.unavailable);
  }
  return ring;
}
