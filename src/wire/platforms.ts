// Platform ids and their published limits. Shared by the client (local validation before any
// request) and the sandbox (server-side validation), so both enforce one table.
import { formatCount } from './numbers.js';
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
  /** The platform's rules beyond length, count, type and size (judged by src/wire/post-rules.ts). */
  rules: PlatformRules;
}

/** Inclusive bounds; a missing side is not limited. */
export interface Bound {
  min?: number;
  max?: number;
}

/** What a platform asks of one kind of media item, with where it says so. */
export interface MediaRules {
  /** Pixels of the shorter and the longer side (a rotated video, or a photo turned by its EXIF orientation, is judged as displayed). */
  shortSide?: Bound;
  longSide?: Bound;
  /** Width × height, at most. */
  maxPixels?: number;
  /** Width / height; `text` says it as the platform does ("4:5 to 1.91:1"). */
  aspect?: Bound & { text: string; guidance?: boolean };
  durationSec?: Bound;
  /** Codec families (src/wire/media-iso.ts names them). */
  codecs?: readonly string[];
  /** GIF frames. */
  frames?: Bound;
  /** A ceiling of its own for this kind (X's GIFs), instead of the image limit. */
  maxBytes?: number;
  source: string;
}

export interface PlatformRules {
  image?: MediaRules;
  video?: MediaRules;
  /** Animated GIFs, where a platform treats them apart from images. */
  gif?: MediaRules;
  /** How many of each kind one post may carry, and whether kinds may be mixed. */
  mix?: { images: number; videos: number; gifs?: number; mixed: boolean; source: string };
  hashtags?: { max: number; source: string };
  /** The post's title (a payload's own `title`, else the post's): required, and how long (code points). */
  title?: { required: boolean; max: number; source: string };
  /** A payload's `link`, in characters. */
  link?: { max: number; source: string };
  /** YouTube Shorts: a post that says #Shorts must be a short vertical video. */
  shorts?: { maxSec: number; source: string };
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
    rules: {
      mix: { images: 4, videos: 1, gifs: 1, mixed: false, source: 'X API v2 POST /2/tweets, media.media_ids: up to 4 images, or 1 animated GIF, or 1 video' },
      gif: { maxBytes: 15 * MB, frames: { max: 350 }, longSide: { max: 1280 }, shortSide: { max: 1080 }, source: 'X media best practices: animated GIF at most 15 MB, 1280×1080 and 350 frames' },
      video: {
        durationSec: { min: 0.5, max: 140 },
        shortSide: { min: 32, max: 1200 },
        longSide: { min: 32, max: 1920 },
        aspect: { min: 1 / 3, max: 3, text: '1:3 to 3:1' },
        codecs: ['h264'],
        source: 'X media best practices: video 0.5 to 140 seconds, 32×32 to 1920×1200 (1200×1900 upright; 1920 read for both, chosen), aspect ratio 1:3 to 3:1, H.264',
      },
    },
  },
  instagram: {
    maxText: 2200,
    textUnit: 'utf16',
    textSource: 'Instagram Graph API content publishing: caption at most 2,200 characters; the unit is not stated, UTF-16 code units chosen (the stricter reading: emoji count 2)',
    maxMedia: 10,
    media: { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg'] }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: true,
    rules: {
      mix: { images: 10, videos: 10, mixed: true, source: 'Instagram Graph API content publishing: a carousel holds up to 10 images and videos' },
      hashtags: { max: 30, source: 'Instagram Graph API content publishing: a caption holds at most 30 hashtags' },
      image: { aspect: { min: 4 / 5, max: 1.91, text: '4:5 to 1.91:1' }, source: 'Instagram Graph API content publishing, image specifications: aspect ratio within 4:5 and 1.91:1' },
      video: {
        durationSec: { min: 3, max: 900 },
        longSide: { max: 1920 },
        codecs: ['h264', 'hevc'],
        source: 'Instagram Graph API content publishing, Reels specifications: 3 seconds to 15 minutes, at most 1920 pixels across, H.264 or HEVC',
      },
    },
  },
  linkedin: {
    maxText: 3000,
    textUnit: 'utf16',
    textSource: 'LinkedIn Posts API: commentary at most 3,000 characters; the unit is not stated, UTF-16 code units chosen (the stricter reading)',
    maxMedia: 9,
    media: { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg', 'image/png', 'image/gif'] }, video: { maxBytes: 500 * MB, mimeTypes: ['video/mp4'] } },
    requiresMedia: false,
    rules: {
      mix: { images: 9, videos: 1, mixed: false, source: 'LinkedIn Posts API: content is one video or a multi-image; not both (9 images chosen, as the media limit)' },
      image: { maxPixels: 36_152_319, source: 'LinkedIn Images API: images of fewer than 36,152,320 pixels' },
      video: { durationSec: { min: 3, max: 30 * 60 }, source: 'LinkedIn Videos API: 3 seconds to 30 minutes' },
    },
  },
  'facebook-page': {
    maxText: 63206,
    textUnit: 'utf16',
    textSource: 'Facebook Graph API page feed: message at most 63,206 characters (Facebook Help Centre); the unit is not stated, UTF-16 code units chosen',
    maxMedia: 10,
    media: { image: { maxBytes: 4 * MB, mimeTypes: [...WEB_IMAGES] }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
    rules: {
      mix: { images: 10, videos: 1, mixed: false, source: 'Facebook Graph API: a Page post attaches photos (attached_media) or is one video (/videos), not both' },
      video: { durationSec: { max: 240 * 60 }, source: 'Facebook Graph API page videos: up to 240 minutes' },
    },
  },
  tiktok: {
    maxText: 2200,
    textUnit: 'utf16',
    textSource: 'TikTok Content Posting API, Direct Post: post_info.title "max 2200 UTF-16 runes"',
    maxMedia: 35,
    media: { image: { maxBytes: 20 * MB, mimeTypes: ['image/jpeg', 'image/webp'] }, video: { maxBytes: 4 * GB, mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'] } },
    requiresMedia: true,
    rules: {
      mix: { images: 35, videos: 1, mixed: false, source: 'TikTok Content Posting API: one video, or a photo post of up to 35 images' },
      image: { shortSide: { max: 1080 }, longSide: { max: 1920 }, source: 'TikTok Content Posting API, photo posts: at most 1080p' },
      video: {
        durationSec: { min: 3, max: 600 },
        shortSide: { min: 360 },
        longSide: { max: 4096 },
        codecs: ['h264', 'hevc', 'vp8', 'vp9'],
        source: "TikTok Content Posting API, media transfer: 360 to 4096 pixels a side, H.264, H.265, VP8 or VP9; up to 10 minutes (the creator's max_video_post_duration_sec; the longest chosen), at least 3 seconds (chosen)",
      },
    },
  },
  youtube: {
    maxText: 5000,
    textUnit: 'utf8-bytes',
    textSource: 'YouTube Data API videos resource: snippet.description "maximum length of 5000 bytes" (UTF-8)',
    maxMedia: 1,
    media: { video: { maxBytes: 256 * GB, mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'] } },
    requiresMedia: true,
    rules: {
      mix: { images: 0, videos: 1, mixed: false, source: 'YouTube Data API videos.insert: one video per upload' },
      title: { required: true, max: 100, source: 'YouTube Data API videos resource: snippet.title is required, at most 100 characters' },
      video: { durationSec: { max: 12 * 3600 }, source: 'YouTube Help, upload limits: up to 12 hours (verified accounts)' },
      shorts: { maxSec: 180, source: 'YouTube Help, YouTube Shorts: up to 3 minutes, square or vertical' },
    },
  },
  bluesky: {
    maxText: 300,
    textUnit: 'graphemes',
    maxTextBytes: 3000,
    textSource: 'Bluesky lexicon app.bsky.feed.post: text maxGraphemes 300 (grapheme clusters, Intl.Segmenter) and maxLength 3000 (lexicon lengths are UTF-8 bytes)',
    maxMedia: 4,
    media: { image: { maxBytes: 1_000_000, mimeTypes: [...JPEG_PNG, 'image/webp'] }, video: { maxBytes: 100_000_000, mimeTypes: ['video/mp4'] } },
    requiresMedia: false,
    rules: {
      mix: { images: 4, videos: 1, mixed: false, source: 'Bluesky lexicons app.bsky.embed.images (at most 4) and app.bsky.embed.video: a post embeds images or one video' },
      video: { durationSec: { max: 180 }, source: 'Bluesky video uploads: up to 3 minutes (Bluesky announcement, 2025)' },
    },
  },
  threads: {
    maxText: 500,
    textUnit: 'threads',
    textSource: 'Threads API, Posts: "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes." Characters read as code points',
    maxMedia: 20,
    media: { image: { maxBytes: 8 * MB, mimeTypes: JPEG_PNG }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
    rules: {
      mix: { images: 20, videos: 20, mixed: true, source: 'Threads API carousel posts: up to 20 images and videos' },
      image: { aspect: { min: 1 / 10, max: 10, text: '1:10 to 10:1' }, source: 'Threads API image specifications: aspect ratio at most 10:1' },
      video: { durationSec: { max: 300 }, source: 'Threads API video specifications: up to 5 minutes' },
    },
  },
  pinterest: {
    maxText: 500,
    textUnit: 'utf16',
    textSource: "Pinterest API v5 pins create: description; Pinterest's help centre gives 500 characters (the stricter figure, kept); the unit is not stated, UTF-16 code units chosen",
    maxMedia: 5,
    media: { image: { maxBytes: 20 * MB, mimeTypes: [...JPEG_PNG, 'image/webp'] }, video: { maxBytes: 2 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: true,
    rules: {
      mix: { images: 5, videos: 1, mixed: false, source: 'Pinterest API v5 pins create: a carousel Pin of up to 5 images, or one video' },
      title: { required: false, max: 100, source: 'Pinterest API v5 pins create: title at most 100 characters' },
      link: { max: 2048, source: 'Pinterest API v5 pins create: link at most 2048 characters' },
      image: { aspect: { min: 1 / 2.1, text: '2:3 recommended; taller than 1:2.1 is cut off in feeds', guidance: true }, source: 'Pinterest creative specifications (guidance, not a refusal)' },
    },
  },
};

/** Unicode code points: the service's own unit for fields no platform counts (the title). */
export function textLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** 1536 → "1.5 KB", as limits and sizes are spoken in messages and views. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) [v, u] = [v / 1024, u + 1];
  const text = v >= 100 ? Math.round(v).toString() : v.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[u]}`;
}

/**
 * A size next to a limit, in the unit the platform states the limit in: a limit of whole binary
 * units (8 MB = 8,388,608) as formatBytes writes it; one of round decimal bytes (Bluesky's
 * 1,000,000) in bytes, as the platform counts them, where "977 KB" would match nothing it says.
 */
export function formatBytesFor(n: number, limit: number): string {
  const decimal = limit % 1024 !== 0 && limit % 1000 === 0;
  return decimal ? `${formatCount(n)} bytes` : formatBytes(n);
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
