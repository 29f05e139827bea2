// A huge GIF must not block: counting stops one frame past the largest limit a platform sets,
// a GIF larger than any platform takes is not walked, and a long walk reads in slices that leave
// the event loop free and stop on abort. Real GIFs, generated here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gif } from '../helpers/media-fixtures.js';
import { bytesSource, MAX_COUNTED_FRAMES, MAX_WALKED_GIF_BYTES, probeMedia } from '../../src/wire/media-probe.js';
import { mediaInspector } from '../../src/posts/media-facts.js';
import { judgePayload } from '../../src/wire/post-rules.js';

const dir = mkdtempSync(join(tmpdir(), 'gif-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A GIF of `frames` frames, each carrying `dataBytes` of image data in 255-byte sub-blocks. */
function heavyGif(frames: number, dataBytes: number): Buffer {
  const head = gif(1, 1, 1).subarray(0, -1 - 23); // header and colour table: one frame (23 bytes) and the trailer cut
  const block = Buffer.alloc(256, 0);
  block[0] = 255;
  const subBlocks = Buffer.concat(Array.from({ length: Math.ceil(dataBytes / 255) }, () => block));
  const frame = Buffer.concat([Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2]), subBlocks, Buffer.from([0])]);
  return Buffer.concat([head, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}

describe('GIF frames', () => {
  it('a 3 MB GIF of 1-pixel frames is counted to 351 ("more than 350"), reading a few KB of it', () => {
    const one = gif(1, 1, 2);
    const frame = one.subarray(one.length - 1 - 23, one.length - 1);
    const bytes = Buffer.concat([one.subarray(0, one.length - 1 - 46), Buffer.concat(Array.from({ length: 150_000 }, () => frame)), Buffer.from([0x3b])]);
    expect(bytes.length).toBeGreaterThan(3_000_000);
    let read = 0;
    const src = bytesSource(bytes);
    const info = probeMedia({ size: src.size, read: (o, l) => ((read += l), src.read(o, l)) });
    expect(MAX_COUNTED_FRAMES).toBe(351);
    expect(info).toMatchObject({ format: 'gif', frames: 351, framesMore: true });
    expect(read).toBeLessThan(200_000);
    const checks = judgePayload('twitter-x', { text: 'gif', media: [{ label: 'a.gif', mimeType: 'image/gif', sizeBytes: bytes.length, info: info! }] });
    expect(checks.find((c) => c.rule === 'gif.frames')).toMatchObject({ verdict: 'fail', actual: '350+', message: expect.stringContaining('more than 350 frames') });
  });

  it('a GIF larger than any platform takes gives its dimensions without a walk', () => {
    const bytes = Buffer.concat([gif(2, 3, 1).subarray(0, -1), Buffer.alloc(MAX_WALKED_GIF_BYTES + 1 - gif(2, 3, 1).length + 1)]);
    let read = 0;
    const src = bytesSource(bytes);
    const info = probeMedia({ size: src.size, read: (o, l) => ((read += l), src.read(o, l)) });
    expect(info).toEqual({ format: 'gif', kind: 'image', width: 2, height: 3 });
    expect(read).toBeLessThan(100_000);
  });

  it('a long walk leaves the event loop free and stops on abort', async () => {
    const path = join(dir, 'heavy.gif');
    writeFileSync(path, heavyGif(300, 10_000)); // ~3 MB of frames to walk
    // Another task waiting for its turn: it gets one only if the walk pauses (a synchronous walk
    // would finish, and resolve, before any immediate runs).
    let turns = 0;
    let next: NodeJS.Immediate | undefined;
    const spin = () => {
      turns++;
      next = setImmediate(spin);
    };
    next = setImmediate(spin);
    const facts = await mediaInspector()({ source: path, isUrl: false, path, label: path });
    clearImmediate(next);
    expect(facts.info).toMatchObject({ format: 'gif', frames: 300 });
    expect(turns).toBeGreaterThan(0);

    const stop = new AbortController();
    const reason = new Error('interrupted');
    const pending = mediaInspector(stop.signal)({ source: path, isUrl: false, path, label: path });
    stop.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
