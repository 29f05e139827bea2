// --account references against a list of accounts: ids, @handles, platform:@handles, handles that
// repeat across platforms, typos with "did you mean", and accounts attached to payloads.
import { describe, expect, it } from 'vitest';
import { attachAccounts, resolveAccounts } from '../../src/accounts/resolve.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import type { SocialAccount } from '../../src/wire/account-schemas.js';

const a = (id: string, platform: string, username: string, isDefault = true): SocialAccount => ({ id, platform, username, isDefault, status: 'connected', displayName: null, tokenExpiresAt: null, connectedAt: null });
const ACCOUNTS = [a('acc_1', 'instagram', 'acme'), a('acc_2', 'threads', 'acme'), a('acc_3', 'linkedin', 'acme-careers', false), a('acc_4', 'youtube', '@AcmeTube')];

const refusal = (refs: string[]) => {
  try {
    resolveAccounts(refs, ACCOUNTS);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInputError);
    return err as InvalidInputError;
  }
  throw new Error('expected a refusal');
};

describe('resolveAccounts', () => {
  it('takes an id, an @handle (with or without @, any case) and platform:@handle, once each, in order', () => {
    expect(resolveAccounts(['acc_3', 'threads:@acme', '@ACMETUBE', 'acme-careers'], ACCOUNTS).map((x) => x.id)).toEqual(['acc_3', 'acc_2', 'acc_4']);
  });

  it('an ambiguous handle names every candidate as platform:@handle', () => {
    const err = refusal(['@acme']);
    expect(err.issues[0]!.message).toBe('--account @acme: 2 accounts have this handle');
    expect(err.issues[0]!.fix).toBe('name one: instagram:@acme, threads:@acme');
  });

  it('an unknown handle says "did you mean", and a misspelt platform prefix is named', () => {
    expect(refusal(['@acme-carers']).issues[0]!.fix).toMatch(/^did you mean linkedin:@acme-careers\?/);
    const prefix = refusal(['linkdin:@acme-careers']).issues[0]!;
    expect(prefix.message).toBe('--account linkdin:@acme-careers: "linkdin" is not a platform');
    expect(prefix.fix).toMatch(/^did you mean linkedin:@acme-careers\?/);
    expect(refusal(['tiktok:@acme']).issues[0]!.message).toBe('--account tiktok:@acme: no such account on tiktok');
  });

  it('every bad reference is told at once', () => {
    expect(refusal(['@nobody', '@acme', 'acc_1']).issues.map((i) => i.message)).toEqual(['--account @nobody: no such account', '--account @acme: 2 accounts have this handle']);
  });
});

describe('attachAccounts', () => {
  it("names each payload's accounts, and refuses an account of a platform the post does not go to", () => {
    const targets = [{ platform: 'instagram', extra: { keep: 1 } as Record<string, unknown> }];
    expect(attachAccounts(targets, [ACCOUNTS[0]!])).toEqual([]);
    expect(targets[0]!.extra).toEqual({ keep: 1, accounts: ['acc_1'] });
    expect(attachAccounts(targets, [ACCOUNTS[2]!])[0]!.message).toBe('--account linkedin:@acme-careers: the post does not go to linkedin');
  });
});
