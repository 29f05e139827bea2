// Messages that name the fix: the posts messages name the flag the user typed, say
// durations as people do, suggest zones by city, and do not repeat themselves.
import { describe, expect, it } from 'vitest';
import { draftFromBody, draftFromFlags, type Issue } from '../../src/posts/draft.js';
import type { Prompter } from '../../src/cli/prompter.js';
import { askPlatforms } from '../../src/cli/commands/posts/prompts.js';
import { describeTime } from '../../src/cli/commands/posts/render.js';
import { validateDraft } from '../../src/posts/validate.js';
import type { TimeInputError } from '../../src/posts/when.js';
import { checkZone, humanAgo, parseAt, requireFuture } from '../../src/posts/when.js';

const NOW = Date.parse('2026-11-23T06:00:00Z');

describe('posts messages', () => {
  it('says how long ago a past time was in years and months, not minutes', () => {
    const at = parseAt('2025-01-01 09:00', { now: NOW, zone: 'UTC' });
    expect(() => requireFuture(at, NOW, '--at', '2025-01-01 09:00')).toThrow(/is in the past by 1 year 11 months$/);
    expect(humanAgo(90 * 60_000)).toBe('1 hour 30 min');
    expect(humanAgo(3 * 86_400_000 + 60_000)).toBe('3 days');
    expect(humanAgo(364.9 * 86_400_000)).toBe('12 months');
    expect(humanAgo(2 * 3_600_000 + 59.9 * 60_000)).toBe('3 hours');
    expect(humanAgo(5 * 60_000)).toBe('5 min');
  });

  it('suggests a zone by its city name', () => {
    const hint = (zone: string) => {
      try {
        checkZone(zone);
      } catch (e) {
        return (e as TimeInputError).hint;
      }
      return 'accepted';
    };
    expect(hint('paris')).toMatch(/^did you mean "Europe\/Paris"\?/);
    expect(hint('new york')).toMatch(/^did you mean "America\/New_York"\?/);
    expect(hint('Europe/Pari')).toMatch(/^did you mean "Europe\/Paris"\?/);
  });

  it('does not name UTC twice', () => {
    const line = describeTime('2026-11-23T06:51:00Z', 'UTC', NOW);
    expect(line).toContain('06:51 UTC');
    expect(line).not.toContain('(UTC)');
    expect(describeTime('2026-11-23T06:51:00Z', 'Europe/Paris', NOW)).toContain('(Europe/Paris)');
  });

  it('names --text-for, with a did-you-mean, for a misspelt platform given there', () => {
    const issues: Issue[] = [];
    const draft = draftFromFlags({ text: 'hi', textFor: ['blusky=x'] }, (p) => p, issues);
    const found = validateDraft(draft, () => undefined);
    expect(found[0]?.message).toBe('--text-for: "blusky" is not a platform id');
    expect(found[0]?.fix).toMatch(/^did you mean "bluesky"\?/);
  });

  it('refuses a --text-for for a platform that --platform does not name, saying how to add it', () => {
    const issues: Issue[] = [];
    const draft = draftFromFlags({ platform: ['threads'], text: 'hi', textFor: ['bluesky=y'] }, (p) => p, issues);
    expect(draft.platforms.map((p) => p.platform)).toEqual(['threads']);
    expect(issues).toEqual([
      {
        field: '--text-for bluesky',
        message: '--text-for bluesky: bluesky is not among the targets (--platform threads)',
        fix: 'add it to the targets (--platform threads,bluesky), or drop --text-for bluesky',
      },
    ]);
  });

  it('tells a CSV row to add a media column, and a body to add media', () => {
    const csvLike = draftFromFlags({ platform: ['instagram'], text: 'hi' }, (p) => p, [], {
      platform: 'line 2: platforms',
      text: 'line 2: text',
      textFor: (p) => `line 2: text:${p}`,
      media: (m) => `line 2: media ${m}`,
      mediaCount: 'line 2: media',
      missingTextFix: () => 'fill the text column',
    });
    expect(validateDraft(csvLike, () => undefined)[0]?.fix).toBe('add a media column with a file or URL (image or video)');
    const body = draftFromBody({ payloads: { instagram: { text: 'hi' } } }, '', (p) => p, [], { schedule: false }).draft!;
    expect(validateDraft(body, () => undefined)[0]?.fix).toMatch(/^add "media": \[\{ "url": … \}\] to payloads\.instagram/);
  });

  it('suggests "title" for "titel" in a --file body', () => {
    const issues: Issue[] = [];
    draftFromBody({ payloads: { bluesky: { text: 'x' } }, titel: 'x' }, 'post.json: ', (p) => p, issues, { schedule: true });
    expect(issues[0]).toMatchObject({ message: 'post.json: titel: unknown field', fix: 'did you mean "title"?' });
  });

  it('echoes the chosen platforms as ids, not their descriptions', async () => {
    let seen: Array<{ name: string; short?: string; value: unknown }> = [];
    const prompter = { checkbox: async (o: { choices: typeof seen }) => ((seen = o.choices), ['bluesky']) } as unknown as Prompter;
    expect(await askPlatforms(prompter)).toEqual(['bluesky']);
    const bluesky = seen.find((c) => c.value === 'bluesky')!;
    expect(bluesky.name).toMatch(/^bluesky \(up to 300/);
    expect(bluesky.short).toBe('bluesky');
  });
});
