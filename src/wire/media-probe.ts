// What an image or video is, from its headers alone: dimensions (as shown: a photo turned by its
// EXIF orientation too), GIF frames, video duration and codec. Pure (no Node APIs): the client
// reads through a file handle, the sandbox from the bytes it was sent. Each reader asks the source for exactly the ranges it needs (an MP4's box headers
// and its `moov` box, wherever it sits; a JPEG's segment headers), never the whole file, and
// answers undefined for what it cannot read instead of throwing.
//
// Our own few readers rather than a package: image-size and mp4box read whole buffers or streams
// and carry far more formats than the platforms take; the headers needed here are short.
import { ascii, probeIsoMedia, read, u32be, type Reads } from './media-iso.js';
import { PLATFORM_LIMITS } from './platforms.js';

export type { Reads };

/** Random access to a file's bytes. */
export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /** The bytes from `offset` on, at most `length` (fewer at the end of the file). */
  read(offset: number, length: number): Uint8Array;
}

export type MediaFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'mp4' | 'mov';

export interface MediaInfo {
  format: MediaFormat;
  kind: 'image' | 'video';
  width?: number;
  height?: number;
  /** Frames of a GIF: counted up to one past the largest limit a platform sets (framesMore then). */
  frames?: number;
  /** The count stopped at `frames`: the GIF has at least that many. */
  framesMore?: boolean;
  /** An animated GIF or WebP. */
  animated?: boolean;
  /** Seconds, for videos. */
  durationSec?: number;
  /** The video codec's family: h264, hevc, av1, vp9, vp8, mpeg4, prores, or the sample entry's own name. */
  codec?: string;
}

/** A source over bytes already in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

/**
 * Reads the headers of a PNG, JPEG, GIF, WebP, MP4 or MOV file; undefined for anything else or a
 * broken header. The readers are generators that yield each range they need and get its bytes back,
 * so that what they read is all they asked for.
 */
export function probeMedia(src: ByteSource): MediaInfo | undefined {
  const reads = probe(src.size);
  let step = reads.next();
  while (!step.done) step = reads.next(src.read(step.value.offset, step.value.length));
  return step.value;
}

/**
 * The same, reading through `src` in slices and calling `pause` after every `sliceBytes` read, so
 * that a long walk (a GIF's blocks) leaves the event loop free; `pause` may throw to stop it.
 */
export async function probeMediaInSlices(src: ByteSource, sliceBytes: number, pause: () => Promise<void>): Promise<MediaInfo | undefined> {
  const reads = probe(src.size);
  let since = 0;
  let step = reads.next();
  while (!step.done) {
    since += step.value.length;
    if (since >= sliceBytes) {
      since = 0;
      await pause();
    }
    step = reads.next(src.read(step.value.offset, step.value.length));
  }
  return step.value;
}

/** The same, over bytes in memory. */
export const probeBytes = (bytes: Uint8Array) => probeMedia(bytesSource(bytes));

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

function* probe(size: number): Reads<MediaInfo | undefined> {
  const head = yield* read(0, 16);
  if (head.length < 8) return undefined;
  if (head[0] === 0x89 && ascii(head, 1, 4) === 'PNG') return yield* probePng();
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return yield* probeJpeg(size);
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return yield* probeGif(size);
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return yield* probeWebp();
  return yield* probeIsoMedia(size, head);
}

function* probePng(): Reads<MediaInfo | undefined> {
  // Signature (8), then the IHDR chunk: length (4), "IHDR", width, height.
  const b = yield* read(0, 24);
  if (b.length < 24 || ascii(b, 12, 16) !== 'IHDR') return undefined;
  return { format: 'png', kind: 'image', width: u32be(b, 16), height: u32be(b, 20) };
}

// Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not frames.
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const MAX_SEGMENTS = 4096;

function* probeJpeg(size: number): Reads<MediaInfo | undefined> {
  let pos = 2;
  let quarterTurn = false;
  for (let n = 0; n < MAX_SEGMENTS && pos + 4 <= size; n++) {
    const h = yield* read(pos, 4);
    if (h.length < 4 || h[0] !== 0xff) return undefined;
    const marker = h[1]!;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    // Markers without a length: restart markers, TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan data before any frame
    const length = u16be(h, 2);
    if (length < 2) return undefined;
    if (marker === 0xe1) quarterTurn ||= yield* exifQuarterTurn(pos + 4, length - 2);
    if (SOF.has(marker)) {
      // Segment: length (2), precision (1), height (2), width (2).
      const f = yield* read(pos + 4, 5);
      if (f.length < 5) return undefined;
      const [width, height] = [u16be(f, 3), u16be(f, 1)];
      return { format: 'jpeg', kind: 'image', ...(quarterTurn ? { width: height, height: width } : { width, height }) };
    }
    pos += 2 + length;
  }
  return undefined;
}

const MAX_IFD_ENTRIES = 256;

/**
 * Whether an APP1 segment's EXIF orientation (tag 0x0112 of the first IFD) turns the picture a
 * quarter (5 to 8): a phone stores an upright photo as landscape pixels with that tag, and shows
 * and publishes it upright, so it is judged as shown, as a rotated video is. Reads the TIFF
 * header and the first IFD's entries only, never the thumbnail or the maker notes.
 */
function* exifQuarterTurn(start: number, length: number): Reads<boolean> {
  const h = yield* read(start, 14);
  if (h.length < 14 || ascii(h, 0, 6) !== 'Exif\0\0') return false;
  const le = ascii(h, 6, 8) === 'II';
  if (!le && ascii(h, 6, 8) !== 'MM') return false;
  const u16 = (b: Uint8Array, at: number) => (le ? u16le(b, at) : u16be(b, at));
  const tiff = start + 6;
  const ifd = le ? u24le(h, 10) + h[13]! * 2 ** 24 : u32be(h, 10);
  if (ifd < 8 || 6 + ifd + 2 > length) return false;
  const count = yield* read(tiff + ifd, 2);
  if (count.length < 2) return false;
  const n = Math.min(u16(count, 0), MAX_IFD_ENTRIES, Math.floor((length - 6 - ifd - 2) / 12));
  const entries = yield* read(tiff + ifd + 2, 12 * n);
  for (let at = 0; at + 12 <= entries.length; at += 12) {
    // Entry: tag (2), type (2, SHORT = 3), count (4), then the value itself in the first 2 bytes.
    if (u16(entries, at) === 0x0112) return u16(entries, at + 2) === 3 && u16(entries, at + 8) >= 5 && u16(entries, at + 8) <= 8;
  }
  return false;
}

function* probeWebp(): Reads<MediaInfo | undefined> {
  const b = yield* read(0, 30);
  if (b.length < 30) return undefined;
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8X') {
    // Flags (animation is bit 1), 3 reserved bytes, canvas width - 1 and height - 1 (24 bits each).
    return { format: 'webp', kind: 'image', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1, animated: (b[20]! & 0x02) !== 0 };
  }
  if (chunk === 'VP8 ') {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return { format: 'webp', kind: 'image', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // Lossless: signature 0x2f, then width - 1 and height - 1 in 14 bits each, little-endian bit order.
    if (b[20] !== 0x2f) return undefined;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { format: 'webp', kind: 'image', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

const GIF_CHUNK = 64 * 1024;

// Counting stops one frame past the largest frame limit a platform sets (a GIF of millions of
// one-pixel frames has "more than 350" as its answer), and a GIF larger than any platform takes
// is not walked at all: its size already refuses it, and its frames would cost the whole file.
const GIF_RULES = Object.values(PLATFORM_LIMITS).map((l) => l.rules.gif);
export const MAX_COUNTED_FRAMES = Math.max(...GIF_RULES.map((g) => g?.frames?.max ?? 0)) + 1;
export const MAX_WALKED_GIF_BYTES = Math.max(...Object.values(PLATFORM_LIMITS).map((l) => (l.media.image?.mimeTypes.includes('image/gif') ? Math.max(l.media.image.maxBytes, l.rules.gif?.maxBytes ?? 0) : 0)));

/**
 * A GIF's frames are counted by walking its blocks, whose lengths are spread through the data:
 * the whole file is needed, so it is read in sequential chunks, up to its trailer.
 */
function* probeGif(size: number): Reads<MediaInfo | undefined> {
  let buf: Uint8Array = new Uint8Array(0);
  let bufAt = 0;
  const byteAt = function* (pos: number): Reads<number | undefined> {
    if (pos < bufAt || pos >= bufAt + buf.length) {
      if (pos >= size) return undefined;
      buf = yield* read(pos, GIF_CHUNK);
      bufAt = pos;
      if (buf.length === 0) return undefined;
    }
    return buf[pos - bufAt];
  };
  const u16At = function* (pos: number): Reads<number | undefined> {
    const lo = yield* byteAt(pos);
    const hi = yield* byteAt(pos + 1);
    return lo === undefined || hi === undefined ? undefined : lo | (hi << 8);
  };
  const width = yield* u16At(6);
  const height = yield* u16At(8);
  const packed = yield* byteAt(10);
  if (width === undefined || height === undefined || packed === undefined) return undefined;
  if (size > MAX_WALKED_GIF_BYTES) return { format: 'gif', kind: 'image', width, height };
  const colorTable = (p: number) => (p & 0x80 ? 3 * 2 ** ((p & 0x07) + 1) : 0);
  let pos = 13 + colorTable(packed);
  let frames = 0;
  const skipSubBlocks = function* (): Reads<boolean> {
    for (;;) {
      const n = yield* byteAt(pos);
      if (n === undefined) return false;
      pos += 1 + n;
      if (n === 0) return true;
    }
  };
  for (;;) {
    const block = yield* byteAt(pos);
    if (block === undefined || block === 0x3b) break; // the trailer, or a file cut short
    if (block === 0x2c) {
      // Image descriptor: position and size (8 bytes), packed flags, optional local colour table,
      // LZW minimum code size, then the image data.
      const flags = yield* byteAt(pos + 9);
      if (flags === undefined) break;
      frames++;
      if (frames >= MAX_COUNTED_FRAMES) return { format: 'gif', kind: 'image', width, height, frames, framesMore: true, animated: true };
      pos += 10 + colorTable(flags) + 1;
      if (!(yield* skipSubBlocks())) break;
    } else if (block === 0x21) {
      pos += 2; // introducer and label
      if (!(yield* skipSubBlocks())) break;
    } else {
      break; // not a GIF block: stop with what was counted
    }
  }
  return { format: 'gif', kind: 'image', width, height, frames, animated: frames > 1 };
}
