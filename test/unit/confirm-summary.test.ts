import { describe, expect, it } from 'vitest';
import { confirmSummary } from '../../src/cli/commands/posts/confirm-summary.js';
import type { Composed } from '../../src/cli/commands/posts/compose.js';
import type { PostDraft } from '../../src/posts/draft.js';
import { displayWidth } from '../../src/output/width.js';

const NOW = Date.parse('2026-06-01T10:00:00Z');

function composed(at?: Composed['at'], zone = 'UTC'): Composed {
  const draft: PostDraft = {
    platforms: [{ platform: 'twitter-x', text: 'Launch day! Our new product ships today.', textLabel: '--text', media: [], extra: {} }],
    platformLabel: '--platform',
    mediaLabel: () => '--media',
    missingTextFix: () => '--text',
    title: undefined,
    extraTop: {},
  };
  return { draft, postId: undefined, at, zone, facts: new Map(), prompted: true, values: undefined, atInput: undefined };
}

describe('confirmSummary on a narrow terminal', () => {
  it('wraps the "when" sentence by words instead of cutting it', () => {
    const lines = confirmSummary(composed(), NOW, 60).split('\n');
    expect(lines.every((l) => displayWidth(l) <= 60)).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('a draft: nothing is published until you schedule it');
    expect(lines.join('\n')).not.toContain('schedu…');
  });

  it('keeps the whole time, its UTC twin and how far off it is', () => {
    const at = { epochMs: Date.parse('2026-06-02T07:30:00Z'), iso: '2026-06-02T07:30:00.000Z', kind: 'local' as const, zone: 'Europe/Paris' };
    const lines = confirmSummary(composed(at, 'Europe/Paris'), NOW, 60).split('\n');
    expect(lines.every((l) => displayWidth(l) <= 60)).toBe(true);
    const when = lines.slice(lines.findIndex((l) => l.startsWith('  when'))).join(' ').replace(/\s+/g, ' ');
    expect(when).toContain('07:30 UTC');
    expect(when).toMatch(/in 2\d hours/);
  });
});

describe('confirmSummary on a 40-column terminal', () => {
  it('gives the text its own line under the count instead of cutting it to nothing', () => {
    const lines = confirmSummary(composed(), NOW, 40).split('\n');
    expect(lines.every((l) => displayWidth(l) <= 40)).toBe(true);
    expect(lines[1]).toBe('  text       twitter-x  40 of 280 chars');
    expect(lines[2]).toBe('               "Launch day! Our new pr…"');
  });

  it('keeps a short text beside its count when it fits there whole', () => {
    const c = composed();
    c.draft!.platforms[0]!.text = 'Launch day!';
    expect(confirmSummary(c, NOW, 60).split('\n')[1]).toBe('  text       twitter-x  11 of 280 characters  "Launch day!"');
  });
});

describe('confirmSummary for a post given by id', () => {
  const at = { epochMs: Date.parse('2026-06-03T18:00:00Z'), iso: '2026-06-03T18:00:00.000Z', kind: 'local' as const, zone: 'UTC' };
  const byId = (): Composed => ({ ...composed(at), draft: undefined, postId: 'post_1' });

  it('moving a scheduled post: says it is scheduled and shows its time now above the new one', () => {
    const text = confirmSummary(byId(), NOW, 80, { payloads: { bluesky: { text: 'Hi' } }, status: 'scheduled', scheduledAt: '2026-06-02T18:00:00.000Z' });
    expect(text).toContain('post_1 (scheduled, as it is)');
    expect(text).toMatch(/ {2}now {8}2026-06-02 18:00 UTC · in 1 day\n {2}moves to {3}2026-06-03 18:00 UTC · in 2 days/);
    expect(text).not.toContain('draft');
  });

  it('scheduling a draft: a draft, and when', () => {
    const text = confirmSummary(byId(), NOW, 80, { payloads: { bluesky: { text: 'Hi' } }, status: 'draft', scheduledAt: null });
    expect(text).toContain('post_1 (a draft, as it is)');
    expect(text).toMatch(/ {2}when {7}2026-06-03 18:00 UTC/);
    expect(text).not.toMatch(/now|moves to/);
  });
});

describe('confirmSummary shows control characters rather than sending them to the terminal', () => {
  it('in a draft text from the service, its title, and a local file name', () => {
    const c = composed();
    c.draft!.platforms[0]!.media = [{ source: '/tmp/invoice\u202egnp.exe', isUrl: false, path: '/tmp/invoice\u202egnp.exe', label: '--media' }];
    const text = confirmSummary(c, NOW, 120, { payloads: { bluesky: { text: 'Hi \u001b[31mred\u001b[39m \u2066x' } }, title: 'T\u202eitle' });
    expect(text).not.toMatch(/[\u001b\u202e\u2066]/);
    expect(text).toContain('invoice\\u202egnp.exe');
    expect(text).toContain('"Hi \\u001b[31mred\\u001b[39m \\u2066x"');
    expect(text).toContain('"T\\u202eitle"');
  });
});
