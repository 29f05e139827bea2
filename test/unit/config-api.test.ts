// A profile's `api` (contract 7.5): SOCIALPUB_API for one run > the profile's api > socialpub, a
// value that names no API refused (exit 2) naming the two there are; and a platform whose
// account SyncPostly cannot pick, asked on a terminal or named as --account values without one.
import { describe, expect, it } from 'vitest';
import { resolveProfile } from '../../src/config/resolve.js';
import type { Profile } from '../../src/config/types.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import { AccountChoiceError } from '../../src/wire/syncpostly/account-choice.js';
import { withAccountChoice } from '../../src/cli/account-choice.js';
import { hintsFor } from '../../src/cli/errors.js';
import { createContext } from '../../src/cli/create-context.js';
import type { PostDraft } from '../../src/posts/draft.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { captureStream, runCli } from '../helpers/run-cli.js';
import { Readable } from 'node:stream';

const store = (profiles: Record<string, Profile>) => ({ current: () => 'acme', get: (name: string) => profiles[name] });
const resolve = (profile: Profile | undefined, env: Record<string, string> = {}) => resolveProfile({ env, store: store(profile ? { acme: profile } : {}) });

describe('the API a run speaks', () => {
  it('is socialpub when nothing says otherwise, and the profile\'s otherwise, with how it was chosen', () => {
    expect(resolve(undefined)).toMatchObject({ api: 'socialpub', apiSource: 'default' });
    expect(resolve({})).toMatchObject({ api: 'socialpub', apiSource: 'default' });
    expect(resolve({ api: 'syncpostly', apiSource: 'set' })).toMatchObject({ api: 'syncpostly', apiSource: 'set' });
    expect(resolve({ api: 'socialpub', apiSource: 'detected' })).toMatchObject({ api: 'socialpub', apiSource: 'detected' });
    // Written by hand, without how: "profile".
    expect(resolve({ api: 'syncpostly' })).toMatchObject({ api: 'syncpostly', apiSource: 'profile' });
  });

  it('SOCIALPUB_API wins over the profile for the run, in any case; set but empty it counts as absent', () => {
    expect(resolve({ api: 'socialpub', apiSource: 'detected' }, { SOCIALPUB_API: 'syncpostly' })).toMatchObject({ api: 'syncpostly', apiSource: 'env' });
    expect(resolve({ api: 'syncpostly', apiSource: 'set' }, { SOCIALPUB_API: ' SocialPub ' })).toMatchObject({ api: 'socialpub', apiSource: 'env' });
    expect(resolve({ api: 'syncpostly', apiSource: 'set' }, { SOCIALPUB_API: '  ' })).toMatchObject({ api: 'syncpostly', apiSource: 'set' });
  });

  it('a value that names no API is invalid input naming where it came from and the values there are', () => {
    const bad = (() => {
      try {
        resolve({}, { SOCIALPUB_API: 'postbridge' });
      } catch (err) {
        return err;
      }
    })();
    expect(bad).toBeInstanceOf(InvalidInputError);
    expect((bad as Error).message).toBe('SOCIALPUB_API: "postbridge" is not an API socialpub speaks (socialpub, syncpostly)');
    expect(() => resolve({ api: 'sync-postly' })).toThrow('api of profile acme: "sync-postly" is not an API socialpub speaks (socialpub, syncpostly)');
  });

  it('an invalid SOCIALPUB_API is exit 2 before any request, naming the allowed values', async () => {
    // Nothing listens on port 9: a request would be exit 6, not 2.
    const r = await runCli(['auth', 'status'], { env: { SOCIALPUB_API: 'postbridge', SOCIALPUB_API_KEY: 'sk_test_0000aaaa1111', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SOCIALPUB_API: "postbridge" is not an API socialpub speaks (socialpub, syncpostly)');
    expect(r.stderr).toContain('unset it');
  });
});

describe('a platform with several accounts and no default (SyncPostly)', () => {
  const candidates = [
    { id: 'acc_li_1', platform: 'linkedin', username: 'brand', displayName: 'Brand' },
    { id: 'acc_li_2', platform: 'linkedin', username: 'founder', displayName: null },
  ];
  const draft = (): PostDraft => ({ platforms: [{ platform: 'linkedin', text: 'hi', media: [], extra: {} }], platformLabel: '--platform', mediaLabel: () => '--media', missingTextFix: () => '', extraTop: {} }) as unknown as PostDraft;
  const ctxFor = (interactive: boolean, prompter?: ScriptedPrompter) => {
    const ctx = createContext({ io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) }, env: {}, clock: { now: () => 0, sleep: async () => {} }, signal: new AbortController().signal, version: 'test', ...(prompter ? { prompter } : {}) });
    ctx.globals.interactive = interactive;
    return ctx;
  };
  /** A write that refuses until the payload names an account, as the client does. */
  const writeOf = (d: PostDraft) => {
    const seen: unknown[] = [];
    return {
      seen,
      write: async () => {
        const accounts = d.platforms[0]!.extra.accounts;
        seen.push(accounts);
        if (!accounts) throw new AccountChoiceError('linkedin', candidates);
        return 'sent';
      },
    };
  };

  it('on a terminal asks which account, writes it into the payload and sends again', async () => {
    const prompter = new ScriptedPrompter(['acc_li_2']);
    const d = draft();
    const w = writeOf(d);
    await expect(withAccountChoice(ctxFor(true, prompter), d, w.write)).resolves.toBe('sent');
    expect(prompter.asked).toEqual(['linkedin has 2 accounts and SyncPostly names no default: publish to which?']);
    expect(w.seen).toEqual([undefined, ['acc_li_2']]);
  });

  it('without a terminal is invalid input (exit 2) naming each candidate as an --account value; nothing is asked', async () => {
    const prompter = new ScriptedPrompter([]);
    const d = draft();
    const err = await withAccountChoice(ctxFor(false, prompter), d, writeOf(d).write).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccountChoiceError);
    expect(hintsFor(err, 0)).toContain('one of: --account linkedin:@brand, --account linkedin:@founder');
    expect(prompter.asked).toEqual([]);
  });
});
