// Platform ids and their published limits. Shared by the client (local validation before any
// request) and the sandbox (server-side validation), so both enforce one table.

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
  /** Longest text, in characters (Unicode code points). */
  maxText: number;
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
    maxMedia: 4,
    media: { image: { maxBytes: 5 * MB, mimeTypes: WEB_IMAGES }, video: { maxBytes: 512 * MB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
  },
  instagram: {
    maxText: 2200,
    maxMedia: 10,
    media: { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg'] }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: true,
  },
  linkedin: {
    maxText: 3000,
    maxMedia: 9,
    media: { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg', 'image/png', 'image/gif'] }, video: { maxBytes: 500 * MB, mimeTypes: ['video/mp4'] } },
    requiresMedia: false,
  },
  'facebook-page': {
    maxText: 63206,
    maxMedia: 10,
    media: { image: { maxBytes: 4 * MB, mimeTypes: [...WEB_IMAGES] }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
  },
  tiktok: {
    maxText: 2200,
    maxMedia: 35,
    media: { image: { maxBytes: 20 * MB, mimeTypes: ['image/jpeg', 'image/webp'] }, video: { maxBytes: 4 * GB, mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'] } },
    requiresMedia: true,
  },
  youtube: {
    maxText: 5000,
    maxMedia: 1,
    media: { video: { maxBytes: 256 * GB, mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'] } },
    requiresMedia: true,
  },
  bluesky: {
    maxText: 300,
    maxMedia: 4,
    media: { image: { maxBytes: 1_000_000, mimeTypes: [...JPEG_PNG, 'image/webp'] }, video: { maxBytes: 100 * MB, mimeTypes: ['video/mp4'] } },
    requiresMedia: false,
  },
  threads: {
    maxText: 500,
    maxMedia: 20,
    media: { image: { maxBytes: 8 * MB, mimeTypes: JPEG_PNG }, video: { maxBytes: 1 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: false,
  },
  pinterest: {
    maxText: 500,
    maxMedia: 5,
    media: { image: { maxBytes: 20 * MB, mimeTypes: [...JPEG_PNG, 'image/webp'] }, video: { maxBytes: 2 * GB, mimeTypes: MP4_MOV } },
    requiresMedia: true,
  },
};

/** Text length as platforms count it: Unicode code points, not UTF-16 units. */
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
  if (dot < 0) return undefined;
  return EXTENSION_MIME[clean.slice(dot + 1).toLowerCase()];
}
