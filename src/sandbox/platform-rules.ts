// The platforms' rules (src/wire/post-rules.ts) applied when the sandbox publishes, from what it
// was given: media uploaded here is judged by its bytes (headers read once, at upload), a URL
// elsewhere only by what its address tells (its type), so rules needing more are skipped.
import { mediaKind, mimeTypeFor, type Platform } from '../wire/platforms.js';
import type { MediaFormat } from '../wire/media-probe.js';
import { judgePayload, type MediaItemFacts, type RuleCheck } from '../wire/post-rules.js';
import { PUBLIC_MEDIA_PREFIX } from './handlers/media.js';
import type { LivePost, MediaRecord, Workspace } from './workspace.js';

const FORMAT_MIME: Record<MediaFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', mp4: 'video/mp4', mov: 'video/quicktime' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Media uploaded to this workspace, when the URL is one of its public media URLs. */
export function ownMedia(ws: Workspace, url: string): MediaRecord | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (!path.startsWith(PUBLIC_MEDIA_PREFIX)) return undefined;
  return ws.findMedia(path.slice(PUBLIC_MEDIA_PREFIX.length).split('/')[0] ?? '');
}

function itemFacts(ws: Workspace, item: unknown, i: number, prefix = ''): MediaItemFacts {
  const url = isObject(item) && typeof item.url === 'string' ? item.url : '';
  const declared = isObject(item) && (item.type === 'image' || item.type === 'video') ? item.type : undefined;
  const label = `${prefix}media[${i}]`;
  const own = ownMedia(ws, url);
  if (own) {
    // The platform fetches the bytes: what they are counts, not the type declared for them.
    const info = own.info;
    return { label, mimeType: info ? FORMAT_MIME[info.format] : own.mimeType, sizeBytes: own.sizeBytes, ...(info ? { info } : {}) };
  }
  const byName = mimeTypeFor(url);
  const mimeType = byName && (!declared || mediaKind(byName) === declared) ? byName : undefined;
  return { label, url, ...(mimeType ? { mimeType } : {}), ...(declared ? { declaredKind: declared } : {}) };
}

/** The first of the platform's rules this post breaks there, if any. */
export function brokenRule(ws: Workspace, post: LivePost, platform: Platform): RuleCheck | undefined {
  const payload = post.payloads[platform];
  if (!payload) return undefined;
  const media = Array.isArray(payload.media) ? payload.media : [];
  const title = typeof payload.title === 'string' ? payload.title : post.title;
  const checks = judgePayload(platform, {
    text: typeof payload.text === 'string' ? payload.text : '',
    ...(title !== undefined ? { title } : {}),
    ...(typeof payload.link === 'string' ? { link: payload.link } : {}),
    media: media.map((m, i) => itemFacts(ws, m, i)),
    // The later parts of a thread, judged as posts of their own with their uploaded media.
    ...(Array.isArray(payload.thread)
      ? { thread: payload.thread.filter(isObject).map((part, p) => ({ text: typeof part.text === 'string' ? part.text : '', media: (Array.isArray(part.media) ? part.media : []).map((m, i) => itemFacts(ws, m, i, `thread[${p}].`)) })) }
      : {}),
    ...(payload.options !== undefined ? { options: payload.options } : {}),
  });
  // With no media at all, that is what the platform answers first. A first comment that fails
  // does not fail the post (it is told in the result), so its rule is not one that breaks it.
  const failed = checks.filter((c) => c.verdict === 'fail' && c.rule !== 'firstComment');
  return failed.find((c) => c.code === 'MEDIA_REQUIRED') ?? failed[0];
}

/** How many later parts a payload's thread has (0 without one). */
export function threadParts(payload: Record<string, unknown> | undefined): number {
  return Array.isArray(payload?.thread) ? payload.thread.length : 0;
}

export function hasMedia(payload: Record<string, unknown> | undefined): boolean {
  return Array.isArray(payload?.media) && payload.media.length > 0;
}
