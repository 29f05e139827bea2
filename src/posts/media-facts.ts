// What we can know about a media item before sending anything: for a local file, whether it
// exists, its size, and its type (from its first bytes, else its extension); for a URL, its type
// from the extension when there is one.
import { open, stat } from 'node:fs/promises';
import { mimeTypeFor } from '../wire/platforms.js';
import type { MediaSource } from './draft.js';

export interface MediaFacts {
  exists: boolean;
  isFile: boolean;
  sizeBytes: number | undefined;
  /** Type from the content (files) or the extension (URLs, files of unknown content). */
  mimeType: string | undefined;
  /** Type the extension claims, when it differs from the content. */
  extensionMime: string | undefined;
}

/** Type from magic numbers: the common image and video containers platforms take. */
export function sniffMime(head: Uint8Array): string | undefined {
  const b = (i: number) => head[i] ?? -1;
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'image/jpeg';
  if (b(0) === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (b(0) === 0x1a && b(1) === 0x45 && b(2) === 0xdf && b(3) === 0xa3) return 'video/webm';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'qt  ') return 'video/quicktime';
    if (/^(heic|heix|mif1|msf1|avif)$/.test(brand)) return brand === 'avif' ? 'image/avif' : 'image/heic';
    return 'video/mp4';
  }
  return undefined;
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

async function fileFacts(path: string): Promise<MediaFacts> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) return { exists: true, isFile: false, sizeBytes: undefined, mimeType: undefined, extensionMime: undefined };
    size = s.size;
  } catch {
    return { exists: false, isFile: false, sizeBytes: undefined, mimeType: undefined, extensionMime: undefined };
  }
  const head = new Uint8Array(16);
  const fh = await open(path, 'r');
  try {
    await fh.read(head, 0, 16, 0);
  } finally {
    await fh.close();
  }
  const byExt = mimeTypeFor(path);
  const sniffed = size > 0 ? sniffMime(head) : undefined;
  // mp4 and m4v share a container; an extension that names the same kind is not a conflict.
  const conflict = sniffed && byExt && sniffed !== byExt && !(sniffed === 'video/mp4' && byExt.startsWith('video/'));
  return { exists: true, isFile: true, sizeBytes: size, mimeType: conflict ? sniffed : (byExt ?? sniffed), extensionMime: conflict ? byExt : undefined };
}
