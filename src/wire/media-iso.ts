// MP4 and MOV (ISO base media / QuickTime): the top-level boxes are walked by their headers alone
// (a 4 GB `mdat` is skipped, not read), and only the `moov` box, at the start or the end of the
// file, is read whole: `mvhd` gives the duration, the video track's `tkhd` its displayed size
// (rotation included) and its `stsd` sample entry the codec.
import type { MediaInfo } from './media-probe.js';

/** A reader: yields each range it needs and gets its bytes back (src/wire/media-probe.ts drives it). */
export type Reads<T> = Generator<{ offset: number; length: number }, T, Uint8Array>;

export function* read(offset: number, length: number): Reads<Uint8Array> {
  return yield { offset, length };
}

/** A `moov` larger than this is not read (a few hours of video make a few MiB). */
export const MAX_MOOV_BYTES = 64 * 1024 * 1024;
const MAX_TOP_BOXES = 10_000;
// Top-level boxes a QuickTime file may start with instead of `ftyp`.
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** Bytes from..to (cut at the end) as Latin-1 text: box types, brands, signatures. A loop, not a spread of a subarray: it runs for every file. */
export function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from, end = Math.min(to, b.length); i < end; i++) s += String.fromCharCode(b[i]!);
  return s;
}
export const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
const u64be = (b: Uint8Array, at: number) => u32be(b, at) * 2 ** 32 + u32be(b, at + 4);
const i32be = (b: Uint8Array, at: number) => u32be(b, at) | 0;

const CODECS: Record<string, string> = {
  avc1: 'h264',
  avc3: 'h264',
  hvc1: 'hevc',
  hev1: 'hevc',
  av01: 'av1',
  vp09: 'vp9',
  vp08: 'vp8',
  mp4v: 'mpeg4',
  apch: 'prores',
  apcn: 'prores',
  apcs: 'prores',
  apco: 'prores',
  ap4h: 'prores',
};

export function* probeIsoMedia(fileSize: number, head: Uint8Array): Reads<MediaInfo | undefined> {
  if (!FIRST_BOXES.has(ascii(head, 4, 8))) return undefined;
  const format = ascii(head, 4, 8) === 'ftyp' && ascii(head, 8, 12) !== 'qt  ' ? 'mp4' : 'mov';
  let pos = 0;
  for (let n = 0; n < MAX_TOP_BOXES && pos + 8 <= fileSize; n++) {
    const h = yield* read(pos, 8);
    if (h.length < 8) return undefined;
    let size = u32be(h, 0);
    let header = 8;
    if (size === 1) {
      // A 64-bit size follows the type.
      const large = yield* read(pos + 8, 8);
      if (large.length < 8) return undefined;
      size = u64be(large, 0);
      header = 16;
    } else if (size === 0) {
      size = fileSize - pos; // the last box runs to the end of the file
    }
    if (size < header) return undefined;
    if (ascii(h, 4, 8) === 'moov') {
      if (size > MAX_MOOV_BYTES || pos + size > fileSize) return undefined;
      const moov = yield* read(pos + header, size - header);
      return readMoov(moov, format);
    }
    pos += size;
  }
  return undefined;
}

interface Box {
  type: string;
  /** Where the content starts and ends in the buffer. */
  start: number;
  end: number;
}

/** The child boxes of a range of a buffer; a box that claims more than its parent holds ends the list. */
function children(b: Uint8Array, start: number, end: number): Box[] {
  const out: Box[] = [];
  let pos = start;
  while (pos + 8 <= end) {
    let size = u32be(b, pos);
    let header = 8;
    if (size === 1) {
      if (pos + 16 > end) break;
      size = u64be(b, pos + 8);
      header = 16;
    } else if (size === 0) {
      size = end - pos;
    }
    if (size < header || pos + size > end) break;
    out.push({ type: ascii(b, pos + 4, pos + 8), start: pos + header, end: pos + size });
    pos += size;
  }
  return out;
}

const child = (b: Uint8Array, parent: Box, type: string) => children(b, parent.start, parent.end).find((c) => c.type === type);

function readMoov(b: Uint8Array, format: 'mp4' | 'mov'): MediaInfo {
  const info: MediaInfo = { format, kind: 'video' };
  const top = children(b, 0, b.length);
  const mvhd = top.find((c) => c.type === 'mvhd');
  if (mvhd) {
    const v1 = b[mvhd.start] === 1;
    const at = mvhd.start + (v1 ? 20 : 12);
    if (at + (v1 ? 12 : 8) <= mvhd.end) {
      const timescale = u32be(b, at);
      // A fragmented MP4 (a recorder's or a live encoder's) says 0 here: its fragments carry the
      // time, and mvex/mehd sums them when the writer knew it; otherwise the duration is not known.
      const duration = (v1 ? u64be(b, at + 4) : u32be(b, at + 4)) || fragmentDuration(b, top);
      const unknown = duration === undefined || (v1 ? duration === 2 ** 64 - 1 : duration === 0xffffffff);
      if (timescale > 0 && !unknown) info.durationSec = duration / timescale;
    }
  }
  for (const trak of top.filter((c) => c.type === 'trak')) {
    const mdia = child(b, trak, 'mdia');
    const hdlr = mdia && child(b, mdia, 'hdlr');
    if (!hdlr || hdlr.start + 12 > hdlr.end || ascii(b, hdlr.start + 8, hdlr.start + 12) !== 'vide') continue;
    const tkhd = child(b, trak, 'tkhd');
    if (tkhd) Object.assign(info, trackSize(b, tkhd));
    const minf = child(b, mdia, 'minf');
    const stbl = minf && child(b, minf, 'stbl');
    const stsd = stbl && child(b, stbl, 'stsd');
    // stsd: version and flags (4), entry count (4), then the first sample entry: size (4), type (4),
    // 6 reserved, data reference index (2), 16 bytes, width (2) and height (2).
    if (stsd && stsd.start + 16 <= stsd.end) {
      const fourcc = ascii(b, stsd.start + 12, stsd.start + 16);
      info.codec = CODECS[fourcc] ?? fourcc.trim();
      const entry = stsd.start + 8;
      if (info.width === undefined && entry + 36 <= stsd.end) {
        info.width = (b[entry + 32]! << 8) | b[entry + 33]!;
        info.height = (b[entry + 34]! << 8) | b[entry + 35]!;
      }
    }
    break; // the first video track is the video
  }
  return info;
}

/** mvex/mehd: a fragmented file's whole duration (in the movie's timescale), when written. */
function fragmentDuration(b: Uint8Array, top: readonly Box[]): number | undefined {
  const mvex = top.find((c) => c.type === 'mvex');
  const mehd = mvex && child(b, mvex, 'mehd');
  if (!mehd) return undefined;
  const v1 = b[mehd.start] === 1;
  if (mehd.start + (v1 ? 12 : 8) > mehd.end) return undefined;
  return (v1 ? u64be(b, mehd.start + 4) : u32be(b, mehd.start + 4)) || undefined;
}

/** tkhd: the displayed width and height (16.16 fixed point), turned by the matrix when it rotates a quarter. */
function trackSize(b: Uint8Array, tkhd: Box): { width: number; height: number } | undefined {
  const v1 = b[tkhd.start] === 1;
  const matrix = tkhd.start + (v1 ? 52 : 40);
  if (matrix + 44 > tkhd.end) return undefined;
  const width = Math.round(u32be(b, matrix + 36) / 65536);
  const height = Math.round(u32be(b, matrix + 40) / 65536);
  if (width === 0 || height === 0) return undefined;
  const quarterTurn = i32be(b, matrix) === 0 && i32be(b, matrix + 16) === 0;
  return quarterTurn ? { width: height, height: width } : { width, height };
}
