// A platform whose account the profile's API cannot pick alone (SyncPostly: several accounts and
// no default, raised by the client before the write is sent). On a terminal the user is asked which
// and the write is made with the answer; otherwise the error (exit 2) names each candidate as the
// --account value that picks it.
import type { Context } from './context.js';
import { addHints } from './cli-error.js';
import { AccountChoiceError, someCandidates, type AccountCandidate } from '../wire/syncpostly/account-choice.js';
import type { PostDraft } from '../posts/draft.js';

/** `--account twitter-x:@brand`, or by id when the account has no handle. */
export const accountValue = (c: AccountCandidate): string => (c.username ? `${c.platform}:@${c.username.replace(/^@+/, '')}` : c.id);

/**
 * Runs `write`; when it stops at a platform with several accounts, asks (once per platform) which
 * one, writes it into that platform's payload of `draft`, and runs `write` again.
 */
export async function withAccountChoice<T>(ctx: Context, draft: PostDraft | undefined, write: () => Promise<T>): Promise<T> {
  const asked = new Set<string>();
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof AccountChoiceError)) throw err;
      const target = draft?.platforms.find((p) => p.platform === err.platform);
      if (err.candidates.length === 0) throw err;
      if (!target || !ctx.globals.interactive || asked.has(err.platform)) {
        throw addHints(err, [`one of: ${someCandidates(err.platform, err.candidates, (c) => `--account ${accountValue(c)}`)}`]);
      }
      asked.add(err.platform);
      const id = await ctx.prompter().select({
        message: `${err.platform} has ${err.candidates.length} accounts and SyncPostly names no default: publish to which?`,
        choices: err.candidates.map((c) => ({ name: `${accountValue(c)}${c.displayName ? ` (${c.displayName})` : ''}${c.username ? ` · ${c.id}` : ''}`, value: c.id, short: accountValue(c) })),
      });
      target.extra = { ...target.extra, accounts: [id] };
    }
  }
}
