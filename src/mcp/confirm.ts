// No destructive change from one unconfirmed call. A tool that is about to delete, unschedule,
// move a scheduled post or drop a platform describes the change, and then:
// - the client declared elicitation: the user is asked, with that description; anything but an
//   explicit yes sends nothing;
// - otherwise: nothing is sent and the answer is a preview carrying a confirm_token, an HMAC
//   (per-process random key) over the tool, its canonical arguments, the post id and the post's
//   version (updatedAt and a digest of its content), valid for CONFIRM_TTL_MS; the same call repeated with that token does the change.
//   A token for other arguments, another post, or a post that changed since is refused.
// `socialpub mcp --allow-destructive` (a host that confirms every call itself) skips both.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex, stableStringify } from '../posts/keys.js';
import type { Post } from '../wire/schemas.js';
import { ToolError } from './errors.js';

/** How long a confirm_token stays good. */
export const CONFIRM_TTL_MS = 10 * 60_000;

/** A change that needs the user's yes. */
export interface DestructiveChange {
  tool: string;
  postId: string;
  /** The post as read: a token is void once it changed (see postVersion). */
  post: Post;
  /** The call's arguments (confirm_token and dry_run are left out of the binding). */
  args: Record<string, unknown>;
  /** What will change, in words a user can judge ("Delete post post_… (scheduled …)"). */
  summary: string;
}

/** How the user answered a question put through elicitation ('no-time': the call had too little time left to ask). */
export type Answer = 'accept' | 'decline' | 'cancel' | 'no-answer' | 'no-time';

/** The note of a change not confirmed, by answer. */
const NOT_CONFIRMED: Record<Exclude<Answer, 'accept'>, string> = {
  decline: 'the user declined: nothing was sent',
  cancel: 'the user dismissed the question: nothing was sent',
  'no-answer': 'the user did not answer in time: nothing was sent (a call answers within 50 s, so the question was withdrawn before then); call again to ask again',
  'no-time': "the service was slow, and too little of this call's time was left to ask the user: nothing was sent; call again to ask",
};

export interface Confirmer {
  /** Undefined: go ahead. Otherwise the answer to return instead (a preview, or the user's no). */
  confirm(change: DestructiveChange): Promise<Record<string, unknown> | undefined>;
}

export interface ConfirmerOptions {
  allowDestructive: boolean;
  /** Set when the client declared elicitation: asks the user, resolves with the answer. */
  ask?: (summary: string) => Promise<Answer>;
  now(): number;
}

/**
 * The post's version: its updatedAt and a digest of all it holds, so a change made within the
 * same millisecond (or by a service that does not move updatedAt) voids a token too.
 */
export function postVersion(post: Post): string {
  return `${post.updatedAt ?? ''}/${sha256Hex(stableStringify(post)).slice(0, 32)}`;
}

const binding = (c: DestructiveChange, expires: number) => {
  const { confirm_token: _t, dry_run: _d, ...args } = c.args;
  return stableStringify({ tool: c.tool, post: c.postId, version: postVersion(c.post), args, expires });
};

/** A signer whose key lives as long as this process: tokens from an earlier server are refused. */
export function createConfirmer(options: ConfirmerOptions, key: Buffer = randomBytes(32)): Confirmer {
  const mac = (c: DestructiveChange, expires: number) => createHmac('sha256', key).update(binding(c, expires)).digest('base64url');
  const sign = (c: DestructiveChange) => {
    const expires = options.now() + CONFIRM_TTL_MS;
    return { token: `ct1.${expires.toString(36)}.${mac(c, expires)}`, expires };
  };
  const refuse = (message: string, hint: string) => new ToolError({ code: 'invalid_input', field: 'confirm_token', message: `confirm_token: ${message}; nothing was sent`, hints: [hint] });
  const check = (c: DestructiveChange, token: string) => {
    const [version, expiresText, given] = token.split('.');
    const expires = expiresText ? parseInt(expiresText, 36) : NaN;
    if (version !== 'ct1' || !Number.isSafeInteger(expires) || !given) throw refuse('not a token this server handed out', 'call without confirm_token to get a preview and a token, and show the user the summary first');
    const want = Buffer.from(mac(c, expires));
    const got = Buffer.from(given);
    if (want.length !== got.length || !timingSafeEqual(want, got)) {
      throw refuse(
        'it was given for another change (other arguments, another post), the post has changed since, or the server restarted',
        'call again without confirm_token for a fresh preview of the change as it stands now, and show it to the user',
      );
    }
    if (options.now() > expires) throw refuse(`it expired at ${new Date(expires).toISOString()}`, 'call again without confirm_token for a fresh preview, and confirm it with the user');
  };

  return {
    async confirm(change) {
      if (options.allowDestructive) return undefined;
      const token = change.args.confirm_token;
      if (typeof token === 'string') {
        check(change, token.trim());
        return undefined;
      }
      if (options.ask) {
        const answer = await options.ask(change.summary);
        if (answer === 'accept') return undefined;
        return { confirmed: false, changed: false, summary: change.summary, note: NOT_CONFIRMED[answer] };
      }
      const { token: fresh, expires } = sign(change);
      return {
        needs_confirmation: true,
        changed: false,
        summary: change.summary,
        confirm_token: fresh,
        expires_at: new Date(expires).toISOString(),
        note: 'nothing was sent. Show the summary to the user; only if they agree, repeat this call with the same arguments plus confirm_token. The token is void if the arguments or the post change.',
      };
    },
  };
}
