// What a post carries beyond its text and media, per platform: a thread of replies, a first
// comment, alt text per image, and the platform's own settings (`options`). One table, cited like
// the text and media limits in platforms.ts; the client judges a post with it before sending and
// the sandbox when it is created and when it publishes.
import type { Platform } from './platforms.js';
import type { TextUnit } from './text-length.js';

export interface ThreadRule {
  /** Most parts, the first post included. */
  maxParts: number;
  source: string;
}

export interface FirstCommentRule {
  /** Longest comment, in `unit`. */
  max: number;
  unit: TextUnit;
  /** Published as a reply to the post (X, Threads) rather than as a comment under it. */
  asReply: boolean;
  source: string;
}

export interface AltRule {
  /** Longest alt text, in code points. */
  max: number;
  source: string;
}

/** The media a value of a setting needs (an Instagram reel is one video): how many items, of which kinds. */
export interface ValueMedia {
  count: number;
  kinds: readonly ('image' | 'video')[];
  /** "one video": said in the message. */
  describe: string;
  source: string;
  /** How the platform frames that media for this value (a reel: full screen 9:16), with where it says so. */
  frame?: { shows: string; source: string };
}

/** One setting of a platform: its key on the wire (`options.<key>`), its kind and allowed values. */
export type OptionSpec =
  | { key: string; kind: 'enum'; values: readonly string[]; source: string; describe: string; media?: Readonly<Record<string, ValueMedia>> }
  | { key: string; kind: 'boolean'; source: string; describe: string }
  | { key: string; kind: 'string'; max: number; https?: boolean; source: string; describe: string }
  | { key: string; kind: 'tags'; maxTotal: number; source: string; describe: string };

export interface PlatformExtras {
  thread?: ThreadRule;
  firstComment?: FirstCommentRule;
  alt?: AltRule;
  options: readonly OptionSpec[];
}

// Sources read 2026-11: each platform's publishing API reference. Where a platform documents no
// number, the figure is marked "chosen" and is the platform's own app limit or the stricter reading.
const THREAD_PARTS_CHOSEN = 25;

export const PLATFORM_EXTRAS: Record<Platform, PlatformExtras> = {
  'twitter-x': {
    thread: { maxParts: THREAD_PARTS_CHOSEN, source: 'X API v2 POST /2/tweets: reply.in_reply_to_tweet_id chains a thread; X sets no number of parts (25 chosen)' },
    firstComment: { max: 280, unit: 'x-weighted', asReply: true, source: 'X API v2 POST /2/tweets: the first comment is a reply, counted like a post (280, twitter-text v3)' },
    alt: { max: 1000, source: 'X API v2 POST /2/media/metadata: alt_text.text at most 1,000 characters' },
    options: [
      {
        key: 'replySettings',
        kind: 'enum',
        values: ['following', 'mentionedUsers', 'subscribers', 'verified'],
        describe: 'who may reply (left out: everyone)',
        source: 'X API v2 POST /2/tweets: reply_settings is one of following, mentionedUsers, subscribers, verified; without it everyone may reply',
      },
    ],
  },
  instagram: {
    firstComment: { max: 2200, unit: 'utf16', asReply: false, source: 'Instagram Graph API POST /{ig-media-id}/comments: message; the limit is not stated, the caption limit of 2,200 chosen' },
    alt: { max: 1000, source: 'Instagram Graph API content publishing: alt_text on image containers; the limit is not stated, 1,000 chosen (as X)' },
    options: [
      {
        key: 'postType',
        kind: 'enum',
        values: ['feed', 'reel', 'story'],
        describe: 'a feed post, a reel (one video) or a story',
        source: 'Instagram Graph API content publishing: media_type IMAGE/VIDEO/CAROUSEL (feed), REELS, STORIES',
        media: {
          reel: {
            count: 1,
            kinds: ['video'],
            describe: 'one video',
            source: 'Instagram Graph API content publishing: a REELS container takes one video_url',
            frame: { shows: 'full screen at 9:16; another shape is cropped to fill it or shown with bars', source: 'Instagram Graph API, Reels specifications: aspect ratio 0.01:1 to 10:1, 9:16 recommended to avoid cropping or blank space' },
          },
          story: { count: 1, kinds: ['image', 'video'], describe: 'one image or one video', source: 'Instagram Graph API content publishing: a STORIES container takes one image_url or video_url (no carousel)' },
        },
      },
    ],
  },
  linkedin: {
    firstComment: { max: 1250, unit: 'utf16', asReply: false, source: 'LinkedIn Comments API: message.text; the limit is not stated, the app limit of 1,250 chosen' },
    alt: { max: 4086, source: 'LinkedIn Posts API, MultiImage and Images content: altText at most 4,086 characters' },
    options: [
      {
        key: 'visibility',
        kind: 'enum',
        values: ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'],
        describe: 'who sees the post',
        source: 'LinkedIn Posts API: visibility PUBLIC, CONNECTIONS, LOGGED_IN (CONTAINER is for groups, not published to here)',
      },
    ],
  },
  'facebook-page': {
    firstComment: { max: 8000, unit: 'utf16', asReply: false, source: 'Facebook Graph API POST /{object-id}/comments: message; the limit is not stated, the app limit of 8,000 chosen' },
    alt: { max: 1000, source: 'Facebook Graph API page photos: alt_text_custom; the limit is not stated, 1,000 chosen (as X)' },
    options: [],
  },
  tiktok: {
    options: [
      {
        key: 'privacy',
        kind: 'enum',
        values: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        describe: "who may watch (the creator's account may allow fewer)",
        source: 'TikTok Content Posting API, Direct Post: post_info.privacy_level, one of the creator_info privacy_level_options',
      },
      { key: 'allowComments', kind: 'boolean', describe: 'comments allowed', source: 'TikTok Content Posting API, Direct Post: post_info.disable_comment (inverted)' },
      { key: 'allowDuet', kind: 'boolean', describe: 'duets allowed', source: 'TikTok Content Posting API, Direct Post: post_info.disable_duet (inverted)' },
      { key: 'allowStitch', kind: 'boolean', describe: 'stitches allowed', source: 'TikTok Content Posting API, Direct Post: post_info.disable_stitch (inverted)' },
    ],
  },
  youtube: {
    firstComment: { max: 10000, unit: 'utf16', asReply: false, source: 'YouTube Data API commentThreads.insert: snippet.topLevelComment.snippet.textOriginal at most 10,000 characters' },
    options: [
      { key: 'privacy', kind: 'enum', values: ['public', 'unlisted', 'private'], describe: 'who may watch', source: 'YouTube Data API videos resource: status.privacyStatus public, unlisted or private' },
      { key: 'tags', kind: 'tags', maxTotal: 500, describe: 'keywords (comma-separated on the command line)', source: 'YouTube Data API videos resource: snippet.tags, at most 500 characters in all (commas between tags count)' },
      { key: 'madeForKids', kind: 'boolean', describe: 'made for children (COPPA)', source: 'YouTube Data API videos resource: status.selfDeclaredMadeForKids' },
    ],
  },
  bluesky: {
    thread: { maxParts: THREAD_PARTS_CHOSEN, source: 'Bluesky lexicon app.bsky.feed.post: reply.root and reply.parent chain a thread; no number of parts is set (25 chosen)' },
    alt: { max: 2000, source: 'Bluesky lexicon app.bsky.embed.images: image.alt sets no length; the Bluesky app stops at 2,000 characters (chosen)' },
    options: [],
  },
  threads: {
    thread: { maxParts: THREAD_PARTS_CHOSEN, source: 'Threads API, replies: reply_to_id chains a thread; no number of parts is set (25 chosen)' },
    firstComment: { max: 500, unit: 'threads', asReply: true, source: 'Threads API, replies: the first comment is a reply, counted like a post (500)' },
    alt: { max: 1000, source: 'Threads API, accessibility: alt_text on images and videos; the limit is not stated, 1,000 chosen (as X)' },
    options: [
      {
        key: 'replyControl',
        kind: 'enum',
        values: ['everyone', 'accounts_you_follow', 'mentioned_only'],
        describe: 'who may reply',
        source: 'Threads API, reply controls: reply_control everyone, accounts_you_follow, mentioned_only',
      },
    ],
  },
  pinterest: {
    alt: { max: 500, source: 'Pinterest API v5 pins create: media_source alt_text at most 500 characters' },
    options: [
      { key: 'board', kind: 'string', max: 64, describe: 'the board id to pin to (left out: the default board)', source: 'Pinterest API v5 pins create: board_id (numeric id; 64 chosen as a ceiling)' },
      { key: 'link', kind: 'string', max: 2048, https: true, describe: 'where the Pin leads', source: 'Pinterest API v5 pins create: link at most 2048 characters' },
    ],
  },
};

/** The platforms that publish a thread, and those that take a first comment. */
export const takesThread = (p: Platform) => PLATFORM_EXTRAS[p].thread !== undefined;
export const takesFirstComment = (p: Platform) => PLATFORM_EXTRAS[p].firstComment !== undefined;

/** The end of a too-long text's fix where the platform takes threads: ", or split it into a thread with --thread" (`how`: the flag). */
export const threadOffer = (p: Platform, how: string) => (takesThread(p) ? `, or split it into a thread with ${how}` : '');

/** The media a setting's value needs (instagram postType=reel: one video), or undefined when it needs none. */
export function valueMedia(spec: OptionSpec | undefined, value: unknown): ValueMedia | undefined {
  return spec?.kind === 'enum' && typeof value === 'string' ? spec.media?.[value] : undefined;
}

/** A platform's setting by key, or undefined. */
export function optionSpec(platform: Platform, key: string): OptionSpec | undefined {
  return PLATFORM_EXTRAS[platform].options.find((o) => o.key === key);
}

/** "following, mentionedUsers, …", "true or false", "text (at most 2048 characters)": what a setting takes. */
export function allowedText(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'enum':
      return spec.values.join(', ');
    case 'boolean':
      return 'true or false';
    case 'string':
      return `${spec.https ? 'an https:// URL' : 'text'} of at most ${spec.max} characters`;
    case 'tags':
      return `a list of tags, at most ${spec.maxTotal} characters in all`;
  }
}
