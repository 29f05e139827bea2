// What we can know about a media item before sending anything: for a local file, whether it
// exists and can be read, its size, and its type from its content (never its name); for a URL,
// its type from the extension when there is one.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { SNIFF_BYTES, sniffContent } from './media-content.js';
import { mimeTypeFor } from '../wire/platforms.js';
import { probeMedia, probeMediaInSlices, type ByteSource, type MediaInfo } from '../wire/media-probe.js';
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
  /** Dimensions, duration, codec, frames: from the headers (files only). */
  info?: MediaInfo;
}

/**
 * The files an inspector remembers: bulk rows that share a file are usually near each other, and
 * a bulk check of 20,000 rows with an image each need not keep 20,000 files' facts.
 */
const CACHED_ITEMS = 128;

/**
 * Facts about each item; one inspector per command run caches by path (bulk rows share files),
 * the most recently read ones. `signal` stops a long header walk (a GIF's frames) between slices.
 */
export function mediaInspector(signal?: AbortSignal): (m: MediaSource) => Promise<MediaFacts> {
  const cache = new Map<string, Promise<MediaFacts>>();
  return (m) => {
    const key = m.isUrl ? `url:${m.source}` : `file:${m.path}`;
    let p = cache.get(key);
    if (!p) {
      p = m.isUrl ? Promise.resolve(urlFacts(m.source)) : fileFacts(m.path!, signal);
      // A Map keeps its insertion order: the first key is the oldest.
      if (cache.size >= CACHED_ITEMS) cache.delete(cache.keys().next().value!);
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

// Read synchronously: a few KiB per file from the page cache, and a bulk file's thousand images
// read through promises spent more time in handles and garbage collection than on the disk.
// One buffer for every first read: nothing keeps it past the call (the facts are numbers and strings).
const HEAD = new Uint8Array(SNIFF_BYTES);
// Non-blocking: opening a FIFO (or a device) named like an image must not wait for a writer,
// which a synchronous open would do with the whole process, deaf even to SIGTERM. A regular
// file reads the same either way. (Windows has no such flag and no such FIFOs.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Reads of one file past this many bytes give the event loop a turn (and Ctrl-C a chance) between slices. */
const SLICE_BYTES = 1024 * 1024;

async function fileFacts(path: string, signal?: AbortSignal): Promise<MediaFacts> {
  let size: number;
  let head = HEAD;
  let read: number;
  let info: MediaInfo | undefined;
  let fd: number | undefined;
  try {
    fd = openSync(path, OPEN_FLAGS);
    const s = fstatSync(fd);
    if (!s.isFile()) return { exists: true, isFile: false, ...NONE };
    size = s.size;
    read = readSync(fd, head, 0, SNIFF_BYTES, 0);
    if (read > 0) {
      // The shared buffer cannot be held across a pause: another file may be read meanwhile.
      if (isGif(head)) head = head.slice(0, read);
      info = isGif(head) ? await probeMediaInSlices(fileSource(fd, size, head.subarray(0, read)), SLICE_BYTES, () => pause(signal)) : probeMedia(fileSource(fd, size, head.subarray(0, read)));
    }
  } catch (err) {
    if (signal?.aborted && err === signal.reason) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false, isFile: false, ...NONE };
    if (code === 'EISDIR') return { exists: true, isFile: false, ...NONE };
    return { exists: true, isFile: true, ...NONE, unreadable: unreadableReason(code, (err as Error).message) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const sniffed = size > 0 ? sniffContent(head.subarray(0, read)) : undefined;
  const mime = sniffed?.mime;
  const byExt = mime === undefined ? undefined : mimeTypeFor(path);
  // mp4, m4v and mov share a container family; an extension that names a video is not a conflict.
  const conflict = mime !== undefined && byExt !== undefined && mime !== byExt && !(mime.startsWith('video/') && byExt.startsWith('video/'));
  const facts: MediaFacts = { exists: true, isFile: true, sizeBytes: size, mimeType: mime, extensionMime: conflict ? byExt : undefined };
  if (sniffed) facts.content = sniffed.what;
  if (info) facts.info = info;
  return facts;
}

/** GIF87a / GIF89a: the one format whose headers are walked through the whole file. */
const isGif = (b: Uint8Array) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38;

function pause(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      if (signal?.aborted) reject(signal.reason as Error);
      else resolve();
    }),
  );
}

/** The file through its descriptor: what the first read already holds is served from it, the rest is read where it lies. */
function fileSource(fd: number, size: number, head: Uint8Array): ByteSource {
  return {
    size,
    read(offset, length) {
      const end = Math.min(size, offset + length);
      if (end <= head.length) return head.subarray(offset, end);
      const buf = new Uint8Array(Math.max(0, end - offset));
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, offset));
    },
  };
}

function unreadableReason(code: string | undefined, message: string): string {
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied (the file exists but this user may not read it)';
  if (code === 'ELOOP') return 'too many symbolic links';
  if (code === 'EISDIR') return 'it is a folder';
  return `cannot read it (${code ?? message})`;
}
