// Platform ids and their published limits. Shared by the client (local validation before any
// request) and the sandbox (server-side validation), so both enforce one table.
import type { TextUnit } from './text-length.js';

export const PLATFORMS = [
  'twitter-x',
  'instagram',
  'linkedin',
  'facebook-page',
  'tiktok',
  'youtube',
  'bluesky',
  'threads',
  'pinterest',
] as const;

export type Platform = (typeof PLATFORMS)[number];

export const POST_STATUSES = ['draft', 'scheduled', 'published', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

export function isPostStatus(value: string): value is PostStatus {
  return (POST_STATUSES as readonly string[]).includes(value);
}

export type MediaKind = 'image' | 'video';

export interface MediaLimit {
  /** Largest file the platform accepts, in bytes. */
  maxBytes: number;
  /** MIME types the platform accepts for this kind. */
  mimeTypes: readonly string[];
}

export interface PlatformLimits {
  /** Longest text, in the platform's own unit (textUnit). */
  maxText: number;
  /** How the platform counts text length (src/wire/text-length.ts). */
  textUnit: TextUnit;
  /** A second ceiling some platforms put on the same text, in UTF-8 bytes. */
  maxTextBytes?: number;
  /** Where the limit and its unit come from; "chosen" where the documentation is silent. */
  textSource: string;
  /** Most media items on one post. */
  maxMedia: number;
  /** Media kinds the platform takes; a missing kind is not accepted at all. */
  media: Partial<Record<MediaKind, MediaLimit>>;
  /** Whether the platform needs at least one media item (video platforms, Pinterest, Instagram). */
  requiresMedia: boolean;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;
const JPEG_PNG = ['image/jpeg', 'image/png'] as const;
const WEB_IMAGES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
const MP4_MOV = ['video/mp4', 'video/quicktime'] as const;

// Sources: each platform's developer documentation for its publishing API, read 2026-11
// (X API v2 media upload; Instagram Graph API content publishing; LinkedIn Images/Videos API;
// Facebook Graph API page photos/videos; TikTok Content Posting API; YouTube Data API
// videos.insert; Bluesky app.bsky.embed.images/video lexicons; Threads API; Pinterest API v5
// pins). The service's own document gives no numbers ("callers validate media size locally"),
// so these are the platforms' limits, rounded down where a platform states a range.
export const PLATFORM_LIMITS: Record<Platform, PlatformLimits> = {
  'twitter-x': {
    maxText: 280,
    textUnit: 'x-weighted',
    textSource: 'X developer docs, "Counting characters", and the published twitter-text configuration v3 (weight 200 by default, 100 for U+0000–U+10FF, U+2000–U+200D, U+2010–U+201F, U+2032–U+2037; emoji 2; every URL 23 (transformedURLLength); NFC first; 280)',
    maxMedia: 4,
    media: { image: { maxBytes: 5 * MB, mimeTypes: WEB_IMAGES }, video: { maxBytes: 512 * MB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
  },
  instagram: {
    maxText: 2200,
    textUnit: 'utf16',
    textSource: 'Instagram Graph API content publishing: caption at most 2,200 characters; the unit is not stated, UTF-16 code units chosen (the stricter reading: emoji count 2)',
    maxMedia: 10,
    media: { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg'] }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: true,
  },
  linkedin: {
    maxText: 3000,
    textUnit: 'utf16',
    textSource: 'LinkedIn Posts API: commentary at most 3,000 characters; the unit is not stated, UTF-16 code units chosen (the stricter reading)',
    maxMedia: 9,
    media: { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg', 'image/png', 'image/gif'] }, video: { maxBytes: 500 * MB, mimeTypes: ['video/mp4'] } },
    requiresMedia: false,
  },
  'facebook-page': {
    maxText: 63206,
    textUnit: 'utf16',
    textSource: 'Facebook Graph API page feed: message at most 63,206 characters (Facebook Help Centre); the unit is not stated, UTF-16 code units chosen',
    maxMedia: 10,
    media: { image: { maxBytes: 4 * MB, mimeTypes: [...WEB_IMAGES] }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
  },
  tiktok: {
    maxText: 2200,
    textUnit: 'utf16',
    textSource: 'TikTok Content Posting API, Direct Post: post_info.title "max 2200 UTF-16 runes"',
    maxMedia: 35,
    media: { image: { maxBytes: 20 * MB, mimeTypes: ['image/jpeg', 'image/webp'] }, video: { maxBytes: 4 * GB, mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'] } },
    requiresMedia: true,
  },
  youtube: {
    maxText: 5000,
    textUnit: 'utf8-bytes',
    textSource: 'YouTube Data API videos resource: snippet.description "maximum length of 5000 bytes" (UTF-8)',
    maxMedia: 1,
    media: { video: { maxBytes: 256 * GB, mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'] } },
    requiresMedia: true,
  },
  bluesky: {
    maxText: 300,
    textUnit: 'graphemes',
    maxTextBytes: 3000,
    textSource: 'Bluesky lexicon app.bsky.feed.post: text maxGraphemes 300 (grapheme clusters, Intl.Segmenter) and maxLength 3000 (lexicon lengths are UTF-8 bytes)',
    maxMedia: 4,
    media: { image: { maxBytes: 1_000_000, mimeTypes: [...JPEG_PNG, 'image/webp'] }, video: { maxBytes: 100 * MB, mimeTypes: ['video/mp4'] } },
    requiresMedia: false,
  },
  threads: {
    maxText: 500,
    textUnit: 'threads',
    textSource: 'Threads API, Posts: "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes." Characters read as code points',
    maxMedia: 20,
    media: { image: { maxBytes: 8 * MB, mimeTypes: JPEG_PNG }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
  },
  pinterest: {
    maxText: 500,
    textUnit: 'utf16',
    textSource: "Pinterest API v5 pins create: description; Pinterest's help centre gives 500 characters (the stricter figure, kept); the unit is not stated, UTF-16 code units chosen",
    maxMedia: 5,
    media: { image: { maxBytes: 20 * MB, mimeTypes: [...JPEG_PNG, 'image/webp'] }, video: { maxBytes: 2 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: true,
  },
};

/** Unicode code points: the service's own unit for fields no platform counts (the title). */
export function textLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Kind of media from a MIME type, or undefined when it is neither image nor video. */
export function mediaKind(mimeType: string): MediaKind | undefined {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  return undefined;
}

const EXTENSION_MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
};

/** MIME type from a file name or URL path, by extension. */
export function mimeTypeFor(name: string): string | undefined {
  const clean = name.split(/[?#]/, 1)[0] ?? name;
  const dot = clean.lastIndexOf('.');
  const ext = clean.slice(dot + 1).toLowerCase();
  // Own keys only: "photo.constructor" is not Object.prototype's constructor.
  return dot >= 0 && Object.hasOwn(EXTENSION_MIME, ext) ? EXTENSION_MIME[ext] : undefined;
}
