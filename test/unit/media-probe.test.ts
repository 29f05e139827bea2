import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesSource, probeMedia, type ByteSource } from '../../src/wire/media-probe.js';
import { box, gif, jpeg, moovBox, png, video, webp } from '../helpers/media-fixtures.js';

/** A source that records every range read, to show what a reader touched. */
function recording(bytes: Uint8Array): ByteSource & { ranges: Array<[number, number]>; total(): number } {
  const inner = bytesSource(bytes);
  const ranges: Array<[number, number]> = [];
  return {
    size: bytes.length,
    ranges,
    total: () => ranges.reduce((n, [a, b]) => n + (b - a), 0),
    read(offset, length) {
      const got = inner.read(offset, length);
      ranges.push([offset, offset + got.length]);
      return got;
    },
  };
}

describe('image headers', () => {
  it('reads PNG width and height from IHDR', async () => {
    expect(probeMedia(bytesSource(png(1080, 1350)))).toEqual({ format: 'png', kind: 'image', width: 1080, height: 1350 });
  });

  it('finds the JPEG frame behind a large EXIF segment, baseline or progressive', async () => {
    expect(probeMedia(bytesSource(jpeg(4032, 3024, { app1Bytes: 60_000 })))).toMatchObject({ format: 'jpeg', width: 4032, height: 3024 });
    expect(probeMedia(bytesSource(jpeg(640, 480, { progressive: true })))).toMatchObject({ width: 640, height: 480 });
  });

  it('skips the EXIF segment by its length instead of reading it', async () => {
    const src = recording(jpeg(800, 600, { app1Bytes: 60_000 }));
    expect(probeMedia(src)).toMatchObject({ width: 800, height: 600 });
    expect(src.total()).toBeLessThan(64);
  });

  it('judges a photo as shown: an EXIF orientation of a quarter turn (5 to 8) swaps width and height, in either byte order', () => {
    expect(probeMedia(bytesSource(jpeg(4032, 3024, { orientation: 6 })))).toMatchObject({ width: 3024, height: 4032 });
    expect(probeMedia(bytesSource(jpeg(4032, 3024, { orientation: 8, littleEndian: true })))).toMatchObject({ width: 3024, height: 4032 });
    expect(probeMedia(bytesSource(jpeg(4032, 3024, { orientation: 3 })))).toMatchObject({ width: 4032, height: 3024 });
    expect(probeMedia(bytesSource(jpeg(4032, 3024, { orientation: 1, littleEndian: true })))).toMatchObject({ width: 4032, height: 3024 });
  });

  it('reads WebP sizes from VP8, VP8L and VP8X chunks', async () => {
    expect(probeMedia(bytesSource(webp(1200, 628, 'VP8 ')))).toMatchObject({ format: 'webp', width: 1200, height: 628 });
    expect(probeMedia(bytesSource(webp(1000, 1500, 'VP8L')))).toMatchObject({ width: 1000, height: 1500 });
    expect(probeMedia(bytesSource(webp(5000, 3000, 'VP8X')))).toMatchObject({ width: 5000, height: 3000, animated: true });
  });

  it('counts GIF frames', async () => {
    expect(probeMedia(bytesSource(gif(320, 240, 1)))).toMatchObject({ format: 'gif', width: 320, height: 240, frames: 1, animated: false });
    expect(probeMedia(bytesSource(gif(320, 240, 350)))).toMatchObject({ frames: 350, animated: true });
    expect(probeMedia(bytesSource(gif(320, 240, 350)))).not.toHaveProperty('framesMore');
    // Past the largest limit a platform sets (X: 350), the count stops.
    expect(probeMedia(bytesSource(gif(320, 240, 400)))).toMatchObject({ frames: 351, framesMore: true, animated: true });
  });
});

describe('video boxes', () => {
  it('reads duration, size and codec of an MP4 whose moov comes first', async () => {
    expect(probeMedia(bytesSource(video({ durationSec: 12.5, width: 1920, height: 1080 })))).toEqual({
      format: 'mp4',
      kind: 'video',
      durationSec: 12.5,
      width: 1920,
      height: 1080,
      codec: 'h264',
    });
  });

  it('finds moov at the end by skipping mdat by its header, 32- or 64-bit', () => {
    const bytes = video({ durationSec: 200, width: 1280, height: 720, codec: 'hvc1', moovAtEnd: true, mdatBytes: 500_000, largeMdat: true });
    const src = recording(bytes);
    expect(probeMedia(src)).toMatchObject({ durationSec: 200, width: 1280, height: 720, codec: 'hevc' });
    expect(src.total()).toBeLessThan(2048);
  });

  it('reads a fragmented MP4 (mvhd says 0) by its mvex/mehd duration, and leaves it unknown without one', () => {
    const spec = { durationSec: 0, width: 1080, height: 1920 };
    const plain = video(spec);
    const moov = moovBox(spec);
    // mehd, version 0: version and flags, then the fragment duration in the movie's timescale (1000).
    const mehd = box('mvex', box('mehd', Buffer.from([0, 0, 0, 0, 0, 0, 0x30, 0xd4])));
    const fragmented = Buffer.concat([plain.subarray(0, plain.indexOf(moov)), box('moov', moov.subarray(8), mehd)]);
    expect(probeMedia(bytesSource(fragmented))).toMatchObject({ durationSec: 12.5, width: 1080, height: 1920 });
    const withoutMehd = probeMedia(bytesSource(plain));
    expect(withoutMehd).toMatchObject({ format: 'mp4', width: 1080, height: 1920 });
    expect(withoutMehd).not.toHaveProperty('durationSec');
  });

  it('reads only box headers and the moov box, wherever moov sits and however large mdat is', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 7200 }), (moovAtEnd, largeMdat, mdatBytes, durationSec) => {
        const bytes = video({ durationSec, width: 1920, height: 1080, moovAtEnd, largeMdat, mdatBytes });
        const moovSize = moovBox({ durationSec, width: 1920, height: 1080 }).length;
        const mdatContent = mdatBytes;
        const mdatStart = moovAtEnd ? 32 : 32 + moovSize;
        const mdatHeader = largeMdat ? 16 : 8;
        const src = recording(bytes);
        expect(probeMedia(src)).toMatchObject({ durationSec, width: 1920, height: 1080 });
        // Nothing inside mdat's content is read.
        const contentStart = mdatStart + mdatHeader;
        expect(src.ranges.filter(([a, b]) => a < contentStart + mdatContent && b > contentStart)).toEqual([]);
        expect(src.total()).toBeLessThanOrEqual(16 + 16 + 8 + moovSize);
      }),
      { numRuns: 150 },
    );
  });

  it('reads a QuickTime MOV, turning the size of a video rotated a quarter', async () => {
    expect(probeMedia(bytesSource(video({ durationSec: 30, width: 1920, height: 1080, mov: true, rotated: true, codec: 'apcn' })))).toMatchObject({
      format: 'mov',
      width: 1080,
      height: 1920,
      codec: 'prores',
    });
  });
});

describe('header readers on bad bytes', () => {
  const samples = [png(10, 10), jpeg(10, 10, { app1Bytes: 100 }), webp(10, 10, 'VP8X'), gif(10, 10, 3), video({ durationSec: 1, width: 10, height: 10, moovAtEnd: true })];

  it('never throw on random bytes, nor read outside them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => {
        const src = recording(bytes);
        probeMedia(src);
        for (const [a, b] of src.ranges) expect(a >= 0 && b <= bytes.length && a <= b).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('never throw on truncated or corrupted real headers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...samples), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), async (sample, cut, flips) => {
        const bytes = Uint8Array.from(sample.subarray(0, cut % (sample.length + 1)));
        for (const [at, v] of flips) if (bytes.length) bytes[at % bytes.length] = v;
        const src = recording(bytes);
        const info = probeMedia(src);
        for (const [a, b] of src.ranges) expect(a >= 0 && b <= bytes.length).toBe(true);
        if (info) expect(['image', 'video']).toContain(info.kind);
      }),
      { numRuns: 600 },
    );
  });

  it('read only the first bytes of an image whose header is complete', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30000 }), fc.integer({ min: 1, max: 30000 }), fc.integer({ min: 0, max: 1_000_000 }), async (w, h, pad) => {
        const src = recording(png(w, h, 64 + pad));
        expect(probeMedia(src)).toMatchObject({ width: w, height: h });
        expect(Math.max(...src.ranges.map(([, b]) => b))).toBeLessThanOrEqual(24);
      }),
      { numRuns: 100 },
    );
  });
});
