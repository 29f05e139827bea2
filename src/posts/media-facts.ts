// What we can know about a media item before sending anything: for a local file, whether it
// exists and can be read, its size, and its type from its content (never its name); for a URL,
// its type from the extension when there is one.
import { open, stat } from 'node:fs/promises';
import { SNIFF_BYTES, sniffContent } from './media-content.js';
import { mimeTypeFor } from '../wire/platforms.js';
import type { MediaSource } from './draft.js';

export interface MediaFacts {
  exists: boolean;
  isFile: boolean;
  sizeBytes: number | undefined;
  /** Type from the content (files) or the extension (URLs); undefined when no media type fits. */
  mimeType: string | undefined;
  /** Type the extension claims, when it differs from the content. */
  extensionMime: string | undefined;
  /** What the content is, for messages ("text", "a PDF document"); files only. */
  content?: string;
  /** Why an existing path could not be read ("permission denied"), when it could not. */
  unreadable?: string;
}

/** Type from magic numbers (src/posts/media-content.ts): the formats platforms take and a few more. */
export function sniffMime(head: Uint8Array): string | undefined {
  return sniffContent(head).mime;
}

/** Facts about each item; one inspector per command run caches by path (bulk rows share files). */
export function mediaInspector(): (m: MediaSource) => Promise<MediaFacts> {
  const cache = new Map<string, Promise<MediaFacts>>();
  return (m) => {
    const key = m.isUrl ? `url:${m.source}` : `file:${m.path}`;
    let p = cache.get(key);
    if (!p) {
      p = m.isUrl ? Promise.resolve(urlFacts(m.source)) : fileFacts(m.path!);
      cache.set(key, p);
    }
    return p;
  };
}

function urlFacts(url: string): MediaFacts {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not a parseable URL: the extension of the raw text is the best we have.
  }
  return { exists: true, isFile: false, sizeBytes: undefined, mimeType: mimeTypeFor(path), extensionMime: undefined };
}

const NONE = { sizeBytes: undefined, mimeType: undefined, extensionMime: undefined } as const;

async function fileFacts(path: string): Promise<MediaFacts> {
  let size: number;
  const head = new Uint8Array(SNIFF_BYTES);
  let read: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) return { exists: true, isFile: false, ...NONE };
    size = s.size;
    const fh = await open(path, 'r');
    try {
      read = (await fh.read(head, 0, SNIFF_BYTES, 0)).bytesRead;
    } finally {
      await fh.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false, isFile: false, ...NONE };
    return { exists: true, isFile: true, ...NONE, unreadable: unreadableReason(code, (err as Error).message) };
  }
  const byExt = mimeTypeFor(path);
  const sniffed = size > 0 ? sniffContent(head.subarray(0, read)) : undefined;
  const mime = sniffed?.mime;
  // mp4, m4v and mov share a container family; an extension that names a video is not a conflict.
  const conflict = mime !== undefined && byExt !== undefined && mime !== byExt && !(mime.startsWith('video/') && byExt.startsWith('video/'));
  return { exists: true, isFile: true, sizeBytes: size, mimeType: mime, extensionMime: conflict ? byExt : undefined, ...(sniffed ? { content: sniffed.what } : {}) };
}

function unreadableReason(code: string | undefined, message: string): string {
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied (the file exists but this user may not read it)';
  if (code === 'ELOOP') return 'too many symbolic links';
  if (code === 'EISDIR') return 'it is a folder';
  return `cannot read it (${code ?? message})`;
}
