// Small, real media headers built at test time (no binaries in the repo): PNG, JPEG, WebP and GIF
// of chosen sizes, MP4/MOV with chosen durations, dimensions, codecs and `moov` placement.
import { writeFileSync, openSync, ftruncateSync, writeSync, closeSync } from 'node:fs';

const cat = (...parts: Uint8Array[]) => Buffer.concat(parts);
const u8 = (...v: number[]) => Uint8Array.from(v);
const u16be = (n: number) => u8(n >> 8, n & 0xff);
const u16le = (n: number) => u8(n & 0xff, n >> 8);
const u24le = (n: number) => u8(n & 0xff, (n >> 8) & 0xff, n >> 16);
const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const ascii = (s: string) => Buffer.from(s, 'latin1');

/** Pads a file's bytes with zeros to `size` (a larger file of the same kind). */
export function padTo(bytes: Uint8Array, size: number | undefined): Buffer {
  return size === undefined || size <= bytes.length ? Buffer.from(bytes) : cat(bytes, Buffer.alloc(size - bytes.length));
}

export function png(width: number, height: number, size?: number): Buffer {
  const ihdr = cat(u32be(13), ascii('IHDR'), u32be(width), u32be(height), u8(8, 2, 0, 0, 0), u32be(0));
  return padTo(cat(u8(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), ihdr, u32be(0), ascii('IEND'), u32be(0xae426082)), size);
}

/**
 * A JPEG with a JFIF segment, an optional EXIF-like APP1 of `app1Bytes` before the frame (or a real
 * EXIF one holding an orientation tag, big- or little-endian), and a progressive or baseline SOF.
 */
export function jpeg(width: number, height: number, options: { app1Bytes?: number; orientation?: number; littleEndian?: boolean; progressive?: boolean; size?: number } = {}): Buffer {
  const seg = (marker: number, body: Uint8Array) => cat(u8(0xff, marker), u16be(body.length + 2), body);
  const app0 = seg(0xe0, cat(ascii('JFIF\0'), u8(1, 1, 0), u16be(72), u16be(72), u8(0, 0)));
  const app1 = options.orientation !== undefined ? seg(0xe1, exif(options.orientation, options.littleEndian === true)) : options.app1Bytes ? seg(0xe1, cat(ascii('Exif\0\0'), Buffer.alloc(options.app1Bytes - 6))) : Buffer.alloc(0);
  const sof = seg(options.progressive ? 0xc2 : 0xc0, cat(u8(8), u16be(height), u16be(width), u8(3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1)));
  const sos = seg(0xda, u8(3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0));
  return padTo(cat(u8(0xff, 0xd8), app0, app1, u8(0xff, 0xc4), u16be(2), sof, sos, u8(0x12, 0x34, 0xff, 0xd9)), options.size);
}

/** EXIF with one IFD: a resolution unit entry, then the orientation (tag 0x0112, SHORT). */
function exif(orientation: number, littleEndian: boolean): Buffer {
  const u16 = (n: number) => (littleEndian ? u8(n & 0xff, n >> 8) : u16be(n));
  const u32 = (n: number) => (littleEndian ? Buffer.from(u32be(n)).reverse() : u32be(n));
  const entry = (tag: number, value: number) => cat(u16(tag), u16(3), u32(1), u16(value), u16(0));
  return cat(ascii('Exif\0\0'), ascii(littleEndian ? 'II' : 'MM'), u16(42), u32(8), u16(2), entry(0x0128, 2), entry(0x0112, orientation), u32(0));
}

export function webp(width: number, height: number, variant: 'VP8 ' | 'VP8L' | 'VP8X' = 'VP8 ', size?: number): Buffer {
  let chunk: Buffer;
  if (variant === 'VP8 ') {
    chunk = cat(u8(0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a), u16le(width), u16le(height), Buffer.alloc(8));
  } else if (variant === 'VP8L') {
    const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    const b = Buffer.alloc(4);
    b.writeUInt32LE(bits >>> 0);
    chunk = cat(u8(0x2f), b, Buffer.alloc(5));
  } else {
    chunk = cat(u8(0x02, 0, 0, 0), u24le(width - 1), u24le(height - 1));
  }
  const body = cat(ascii(variant), Buffer.from(u32le(chunk.length)), chunk);
  return padTo(cat(ascii('RIFF'), u32le(4 + body.length), ascii('WEBP'), body), size);
}

function u32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

/** A GIF89a with a global colour table and `frames` frames, each with a graphic control extension. */
export function gif(width: number, height: number, frames = 1, size?: number): Buffer {
  const parts: Uint8Array[] = [ascii('GIF89a'), u16le(width), u16le(height), u8(0x80, 0, 0), Buffer.alloc(6)];
  if (frames > 1) parts.push(u8(0x21, 0xff, 11), ascii('NETSCAPE2.0'), u8(3, 1, 0, 0, 0));
  for (let i = 0; i < frames; i++) {
    parts.push(u8(0x21, 0xf9, 4, 0, 10, 0, 0, 0));
    parts.push(u8(0x2c), u16le(0), u16le(0), u16le(width), u16le(height), u8(0), u8(2), u8(2, 0x4c, 0x01), u8(0));
  }
  parts.push(u8(0x3b));
  return padTo(cat(...parts), size);
}

export function box(type: string, ...content: Uint8Array[]): Buffer {
  const body = cat(...content);
  return cat(u32be(body.length + 8), ascii(type), body);
}

export interface VideoSpec {
  durationSec: number;
  width: number;
  height: number;
  /** Sample entry type: avc1 (default), hvc1, av01, vp09, apcn… */
  codec?: string;
  /** QuickTime (ftyp brand "qt  ") instead of MP4. */
  mov?: boolean;
  /** Rotated a quarter turn by the track matrix (a phone held upright): width and height swap on display. */
  rotated?: boolean;
  /** Where moov sits (default: the start). */
  moovAtEnd?: boolean;
  /** Bytes of mdat content (default 64). */
  mdatBytes?: number;
  /** Write mdat with a 64-bit size header. */
  largeMdat?: boolean;
}

export function moovBox(spec: VideoSpec): Buffer {
  const timescale = 1000;
  const mvhd = box('mvhd', u8(0, 0, 0, 0), u32be(0), u32be(0), u32be(timescale), u32be(Math.round(spec.durationSec * timescale)), Buffer.alloc(80));
  const one = 0x10000;
  const matrix = spec.rotated
    ? cat(u32be(0), u32be(one), u32be(0), u32be(-one), u32be(0), u32be(0), u32be(0), u32be(0), u32be(0x40000000))
    : cat(u32be(one), u32be(0), u32be(0), u32be(0), u32be(one), u32be(0), u32be(0), u32be(0), u32be(0x40000000));
  const tkhd = box('tkhd', u8(0, 0, 0, 3), u32be(0), u32be(0), u32be(1), u32be(0), u32be(0), Buffer.alloc(8), Buffer.alloc(8), matrix, u32be(spec.width * one), u32be(spec.height * one));
  const hdlr = box('hdlr', u8(0, 0, 0, 0), u32be(0), ascii('vide'), Buffer.alloc(12), ascii('VideoHandler\0'));
  const entry = box(spec.codec ?? 'avc1', Buffer.alloc(6), u16be(1), Buffer.alloc(16), u16be(spec.width), u16be(spec.height), Buffer.alloc(50));
  const stsd = box('stsd', u8(0, 0, 0, 0), u32be(1), entry);
  const trak = box('trak', tkhd, box('mdia', box('mdhd', Buffer.alloc(24)), hdlr, box('minf', box('stbl', stsd))));
  const soundHdlr = box('hdlr', u8(0, 0, 0, 0), u32be(0), ascii('soun'), Buffer.alloc(12), ascii('Sound\0'));
  const audio = box('trak', box('mdia', soundHdlr, box('minf', box('stbl', box('stsd', u8(0, 0, 0, 0), u32be(1), box('mp4a', Buffer.alloc(28)))))));
  return box('moov', mvhd, audio, trak);
}

function ftyp(spec: VideoSpec): Buffer {
  return spec.mov ? box('ftyp', ascii('qt  '), u32be(0x200), ascii('qt  ')) : box('ftyp', ascii('isom'), u32be(0x200), ascii('isomiso2avc1mp41'));
}

function mdatHeader(spec: VideoSpec, contentBytes: number): Buffer {
  if (spec.largeMdat) {
    const size = Buffer.alloc(8);
    size.writeBigUInt64BE(BigInt(contentBytes + 16));
    return cat(u32be(1), ascii('mdat'), size);
  }
  return cat(u32be(contentBytes + 8), ascii('mdat'));
}

/** A whole small MP4/MOV in memory. */
export function video(spec: VideoSpec): Buffer {
  const content = Buffer.alloc(spec.mdatBytes ?? 64, 0x5a);
  const mdat = cat(mdatHeader(spec, content.length), content);
  const moov = moovBox(spec);
  return spec.moovAtEnd ? cat(ftyp(spec), mdat, moov) : cat(ftyp(spec), moov, mdat);
}

/**
 * A large video written sparse: ftyp, an mdat header claiming `mdatBytes` (a hole, never written),
 * and moov at the end. Costs no disk beyond the headers.
 */
export function writeSparseVideo(path: string, spec: VideoSpec & { mdatBytes: number }): void {
  const head = cat(ftyp(spec), mdatHeader({ ...spec, largeMdat: true }, spec.mdatBytes));
  const moov = moovBox(spec);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head, 0, head.length, 0);
    ftruncateSync(fd, head.length + spec.mdatBytes);
    writeSync(fd, moov, 0, moov.length, head.length + spec.mdatBytes);
  } finally {
    closeSync(fd);
  }
}

export function writeFixture(path: string, bytes: Uint8Array): string {
  writeFileSync(path, bytes);
  return path;
}
