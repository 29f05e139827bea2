// What a file really is, from its first bytes (magic numbers), never from its name.
//
// A small table of our own rather than the `file-type` package: file-type reads through
// strtok3/token-types streams, and knows hundreds of formats
// we would only ever refuse. The platforms take JPEG, PNG, GIF, WebP, MP4, MOV and WebM; the
// rest of the table only names common wrong files so the refusal can say what was given.

import { ascii } from '../wire/media-iso.js';

/** Bytes to read from the start of a file: enough for every signature below and a text check. */
export const SNIFF_BYTES = 4096;

export interface ContentType {
  /** The MIME type, when the content is an image or video format we recognise. */
  mime: string | undefined;
  /** What it is, for messages: "a PNG image", "text", "a PDF document". */
  what: string;
}

// Read for every file of a bulk check: a plain loop, the signatures made once.
function starts(b: Uint8Array, bytes: readonly number[], at = 0): boolean {
  for (let i = 0; i < bytes.length; i++) if (b[at + i] !== bytes[i]) return false;
  return true;
}
const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const EBML = [0x1a, 0x45, 0xdf, 0xa3];

// ISO base media (ftyp) brands: QuickTime, HEIF stills, and everything else in the MP4 family.
const QUICKTIME_BRANDS = new Set(['qt  ']);
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
// Atoms an old QuickTime file may start with instead of ftyp.
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function isoMedia(b: Uint8Array): ContentType | undefined {
  if (ascii(b, 4, 8) !== 'ftyp') {
    return QUICKTIME_ATOMS.has(ascii(b, 4, 8)) && b.length >= 8 ? { mime: 'video/quicktime', what: 'a QuickTime (MOV) video' } : undefined;
  }
  const brand = ascii(b, 8, 12);
  if (QUICKTIME_BRANDS.has(brand)) return { mime: 'video/quicktime', what: 'a QuickTime (MOV) video' };
  if (HEIF_BRANDS.has(brand)) return { mime: 'image/heic', what: 'a HEIC image' };
  if (AVIF_BRANDS.has(brand)) return { mime: 'image/avif', what: 'an AVIF image' };
  if (brand.startsWith('M4A') || brand === 'M4B ') return { mime: 'audio/mp4', what: 'an MP4 audio file (M4A)' };
  return { mime: 'video/mp4', what: 'an MP4 video' };
}

/** Matroska and WebM share the EBML header; the DocType element says which. */
function ebml(b: Uint8Array): ContentType | undefined {
  if (!starts(b, EBML)) return undefined;
  const head = ascii(b, 4, 64);
  if (head.includes('webm')) return { mime: 'video/webm', what: 'a WebM video' };
  return { mime: 'video/x-matroska', what: 'a Matroska (MKV) video' };
}

function riff(b: Uint8Array): ContentType | undefined {
  if (ascii(b, 0, 4) !== 'RIFF') return undefined;
  const form = ascii(b, 8, 12);
  if (form === 'WEBP') return { mime: 'image/webp', what: 'a WebP image' };
  if (form === 'AVI ') return { mime: 'video/x-msvideo', what: 'an AVI video' };
  if (form === 'WAVE') return { mime: 'audio/wav', what: 'a WAV audio file' };
  return { mime: undefined, what: 'a RIFF file' };
}

// Formats no platform takes, named so the message can say what the file is.
const OTHERS: ReadonlyArray<[readonly number[] | string, string, string | undefined]> = [
  ['%PDF-', 'a PDF document', undefined],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (or a document in one: docx, xlsx, …)', undefined],
  [[0x1f, 0x8b], 'a gzip archive', undefined],
  ['BM', 'a BMP image', 'image/bmp'],
  [[0x49, 0x49, 0x2a, 0x00], 'a TIFF image', 'image/tiff'],
  [[0x4d, 0x4d, 0x00, 0x2a], 'a TIFF image', 'image/tiff'],
  ['ID3', 'an MP3 audio file', 'audio/mpeg'],
  ['OggS', 'an Ogg file', 'audio/ogg'],
  ['fLaC', 'a FLAC audio file', 'audio/flac'],
  [[0x00, 0x00, 0x01, 0x00], 'an icon (ICO)', 'image/x-icon'],
  ['8BPS', 'a Photoshop document', 'image/vnd.adobe.photoshop'],
];

// One decoder for every file: each decode() call without `stream` starts afresh.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function isText(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  // A UTF-8 sequence cut at the end of the sample is still text: drop up to 3 trailing bytes.
  for (let cut = 0; cut <= Math.min(3, b.length - 1); cut++) {
    try {
      const s = STRICT_UTF8.decode(b.subarray(0, b.length - cut));
      return !/[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/.test(s);
    } catch {
      // try a shorter sample
    }
  }
  return false;
}

/** What the first bytes of a file say it is. */
export function sniffContent(head: Uint8Array): ContentType {
  if (starts(head, JPEG)) return { mime: 'image/jpeg', what: 'a JPEG image' };
  if (starts(head, PNG)) return { mime: 'image/png', what: 'a PNG image' };
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return { mime: 'image/gif', what: 'a GIF image' };
  const known = riff(head) ?? isoMedia(head) ?? ebml(head);
  if (known) return known;
  for (const [sig, what, mime] of OTHERS) {
    if (typeof sig === 'string' ? ascii(head, 0, sig.length) === sig : starts(head, sig)) return { mime, what };
  }
  if (isText(head)) {
    const start = new TextDecoder().decode(head.subarray(0, 256)).trimStart().toLowerCase();
    if (start.startsWith('<svg') || (start.startsWith('<?xml') && start.includes('<svg'))) return { mime: 'image/svg+xml', what: 'an SVG drawing (text)' };
    if (start.startsWith('<!doctype html') || start.startsWith('<html')) return { mime: undefined, what: 'an HTML page (text)' };
    return { mime: undefined, what: 'text' };
  }
  return { mime: undefined, what: 'binary data of no known format' };
}
