// Media recognised by content: each format's signature as its specification gives it (JPEG SOI
// FF D8 FF; PNG's 8-byte signature; GIF87a/GIF89a; RIFF….WEBP; ISO BMFF "ftyp" with its major
// brand; EBML 1A 45 DF A3 with DocType "webm"), and what a refused file is said to be.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sniffContent } from '../../src/posts/media-content.js';

const bytes = (...parts: Array<number[] | string>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const ftyp = (brand: string) => bytes([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 0, 0]);

describe('sniffContent', () => {
  it.each([
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe1, 0, 0x10]), 'image/jpeg'],
    ['PNG', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR'), 'image/png'],
    ['GIF89a', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif'],
    ['GIF87a', bytes('GIF87a', [1, 0, 1, 0]), 'image/gif'],
    ['WebP', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['MP4 (isom)', ftyp('isom'), 'video/mp4'],
    ['MP4 (mp42)', ftyp('mp42'), 'video/mp4'],
    ['QuickTime (qt)', ftyp('qt  '), 'video/quicktime'],
    ['HEIC', ftyp('heic'), 'image/heic'],
    ['AVIF', ftyp('avif'), 'image/avif'],
    ['WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm'), 'video/webm'],
    ['Matroska', bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88], 'matroska'), 'video/x-matroska'],
  ])('%s', (_, head, mime) => {
    expect(sniffContent(head).mime).toBe(mime);
  });

  it.each([
    ['text', Buffer.from('just some text!\n'), 'text'],
    ['UTF-8 text cut mid-character', Buffer.from('café ☕ notes').subarray(0, 14), 'text'],
    ['an SVG drawing', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'an SVG drawing (text)'],
    ['an HTML page', Buffer.from('<!DOCTYPE html><html></html>'), 'an HTML page (text)'],
    ['a PDF', Buffer.from('%PDF-1.7\n'), 'a PDF document'],
    ['a ZIP', bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0]), 'a ZIP archive (or a document in one: docx, xlsx, …)'],
    ['random bytes', Buffer.concat([Buffer.from([0x00, 0x9c, 0xfe, 0x01]), randomBytes(4092)]), 'binary data of no known format'],
  ])('names what is not media: %s', (_, head, what) => {
    const found = sniffContent(head);
    expect(found.what).toBe(what);
    expect(found.mime === undefined || !/^(image|video)\/(jpeg|png|gif|webp|mp4|quicktime|webm)$/.test(found.mime)).toBe(true);
  });
});
