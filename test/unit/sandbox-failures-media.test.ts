// A failure the sandbox injects at random must be one the post could really get: no reason about
// its media that the media disprove (a 10-second TikTok clip, which `posts check` passed, failed
// with "The video duration is shorter than 3 seconds").
import { describe, expect, it } from 'vitest';
import { failureFor } from '../../src/sandbox/failures.js';
import { entropyFromSeed } from '../../src/sandbox/random.js';
import { PLATFORMS } from '../../src/wire/platforms.js';

/** Claims about a file's facts: its length, size, dimensions, shape, codec. */
const MEDIA_FACT = /duration|seconds|shorter|longer|too (large|small|big)|\b\d+(\.\d+)?\s*(KB|MB|GB|pixels|px)\b|aspect ratio|codec|resolution/i;

describe('random media failures', () => {
  it('never state a fact of the media (every platform, many rows)', () => {
    const e = entropyFromSeed(7);
    const seen = new Set<string>();
    for (const platform of PLATFORMS) {
      for (let row = 0; row < 400; row++) {
        const f = failureFor(e, 1, row, platform);
        if (f.code !== 'MEDIA_REJECTED') continue;
        seen.add(platform);
        const text = `${f.message} ${JSON.stringify(f.context)}`;
        expect(text, `${platform}: ${text}`).not.toMatch(MEDIA_FACT);
      }
    }
    // The kind is still produced where the platform has it.
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });
});
