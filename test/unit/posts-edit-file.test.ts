// The file `posts edit --editor` opens: readable in a narrow terminal, and read back as written:
// texts, a thread's parts, first comments, alt texts and settings; a value that is wrong is named
// by its line, before anything is planned to be sent.
import { describe, expect, it } from 'vitest';
import { editorFile, editorPayload, parseEditorFile, sectionChange, type EditedFile, type EditorPayload } from '../../src/posts/edit-file.js';
import { planEdit, type PayloadEdit } from '../../src/posts/edit.js';
import { displayWidth } from '../../src/output/width.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import type { Post } from '../../src/wire/schemas.js';

const read = (content: string): EditedFile => {
  const parsed = parseEditorFile(content);
  if (parsed === 'empty') throw new Error('read as empty');
  return parsed;
};
/** The changes a file asks for, per platform, as the command hands them to planEdit. */
const changesOf = (content: string) => {
  const parsed = read(content);
  expect(parsed.issues).toEqual([]);
  return new Map([...parsed.sections].map(([p, s]) => [p, sectionChange(p, s, false)]));
};
const lineOf = (content: string, text: string) => content.split('\n').indexOf(text) + 1;

describe('the editor file', () => {
  const texts = new Map<string, EditorPayload>([
    ['twitter-x', { text: 'Launch day! 🚀 Our new café menu is live' }],
    ['bluesky', { text: 'Bluesky gets a longer version: 新しいメニュー 🍰' }],
  ]);

  it('its own comment lines fit 72 columns, so a narrow terminal does not wrap them (the option lists too)', () => {
    const all = new Map<string, EditorPayload>([...texts, ['tiktok', { text: 'x' }], ['youtube', { text: 'y' }], ['pinterest', { text: 'z', media: [{ name: 'a-rather-long-file-name-for-a-pin.jpg' }] }]]);
    const comments = editorFile('post_2G2Omb3eUMjy', all).split('\n').filter((l) => l.startsWith('//') && !/^\/\/ [a-z-]+: at most/.test(l));
    expect(comments.length).toBeGreaterThan(10);
    for (const line of comments) expect(displayWidth(line), line).toBeLessThanOrEqual(72);
  });

  it('reads back the texts as they were', () => {
    const back = changesOf(editorFile('post_2G2Omb3eUMjy', texts));
    expect(new Map([...back].map(([p, c]) => [p, c.text]))).toEqual(new Map([...texts].map(([p, v]) => [p, v.text])));
  });

  it('shows each platform what it takes, with the allowed values of its settings', () => {
    const file = editorFile('post_1', new Map<string, EditorPayload>([
      ['bluesky', { text: 'a', media: [{ name: 'cat.png' }] }],
      ['youtube', { text: 'b', options: { privacy: 'unlisted' } }],
      ['tiktok', { text: 'c' }],
    ]));
    const section = (p: string) => file.split(`=== ${p} ===`)[1]!.split('\n=== ')[0]!;
    // Bluesky: a thread and alt text, no first comment, no settings.
    expect(section('bluesky')).toContain('a line holding only --- starts the next part');
    expect(section('bluesky')).toContain('--- alt 1: cat.png ---');
    expect(section('bluesky')).not.toContain('--- first comment ---');
    expect(section('bluesky')).not.toContain('--- options ---');
    // YouTube: a first comment and settings, no thread, no alt text.
    expect(section('youtube')).toContain('--- first comment ---');
    expect(section('youtube')).toMatch(/\/\/ privacy: public, unlisted, private; who may watch\nprivacy = unlisted\n/);
    expect(section('youtube')).toMatch(/\nmadeForKids = \n?/);
    expect(section('youtube')).not.toMatch(/^---$/m);
    expect(section('tiktok')).toContain('PUBLIC_TO_EVERYONE');
    expect(section('tiktok')).toContain('allowDuet = ');
  });

  it('round trip: a thread, a first comment, alt texts and settings come back as they went in', () => {
    const payloads = new Map<string, EditorPayload>([
      ['twitter-x', { text: 'Part one.', thread: ['Part two,\n\nwith a paragraph.', 'Part three #launch'], firstComment: 'More at https://example.com', media: [{ name: 'a.png', alt: 'A red bicycle' }, { name: 'b.png' }], options: { replySettings: 'following' } }],
      ['youtube', { text: 'Watch', firstComment: 'Thanks!', options: { privacy: 'unlisted', tags: ['launch', 'café menu'], madeForKids: false } }],
      ['tiktok', { text: 'Dance', options: { privacy: 'SELF_ONLY', allowComments: true, allowDuet: false } }],
      ['pinterest', { text: 'Pin', media: [{ name: 'pin.jpg', alt: 'A cake' }], options: { board: '1234', link: 'https://example.com/cake' } }],
    ]);
    const back = changesOf(editorFile('post_1', payloads));
    const x = back.get('twitter-x')!;
    expect([x.text, x.thread, x.firstComment, x.options]).toEqual(['Part one.', ['Part two,\n\nwith a paragraph.', 'Part three #launch'], 'More at https://example.com', { replySettings: 'following' }]);
    // An item without alt text stays without (an empty block).
    expect(x.alt).toEqual(new Map([[0, 'A red bicycle'], [1, null]]));
    expect([back.get('youtube')!.firstComment, back.get('youtube')!.options]).toEqual(['Thanks!', { privacy: 'unlisted', tags: ['launch', 'café menu'], madeForKids: false }]);
    expect(back.get('tiktok')!.options).toEqual({ privacy: 'SELF_ONLY', allowComments: true, allowDuet: false });
    expect([back.get('pinterest')!.alt, back.get('pinterest')!.options]).toEqual([new Map([[0, 'A cake']]), { board: '1234', link: 'https://example.com/cake' }]);
  });

  it('from a post as the service sends it: the sections show its extras', () => {
    const payload = { text: 'One', thread: [{ text: 'Two' }], firstComment: 'Hi', media: [{ url: 'https://cdn.example/m/abc.png?x=1', type: 'image', alt: 'Alt' }], options: { replySettings: 'verified' } };
    const back = changesOf(editorFile('post_1', new Map([['twitter-x', editorPayload(payload)]]))).get('twitter-x')!;
    expect([back.text, back.thread, back.firstComment, back.alt, back.options]).toEqual(['One', ['Two'], 'Hi', new Map([[0, 'Alt']]), { replySettings: 'verified' }]);
    expect(editorFile('post_1', new Map([['twitter-x', editorPayload(payload)]]))).toContain('--- alt 1: abc.png ---');
  });

  it("a later part's media have alt blocks of their own, numbered by part, read back by part", () => {
    const payload = { text: 'One', media: [{ url: 'https://cdn.example/top.png', alt: 'Top' }], thread: [{ text: 'Two' }, { text: 'Three', media: [{ url: 'https://cdn.example/map.png', alt: 'A map' }, { url: 'https://cdn.example/b.png' }] }] };
    const file = editorFile('post_1', new Map([['bluesky', editorPayload(payload)]]));
    expect(file).toMatch(/--- alt 1: top\.png ---\n(?:\/\/.*\n)*Top\n/);
    expect(file).toMatch(/--- part 3 alt 1: map\.png ---\n\/\/ Alt text of media 1 of thread part 3; at most 2000 characters\.[\s\S]*\nA map\n/);
    expect(file).toContain('--- part 3 alt 2: b.png ---');
    expect(file).not.toContain('part 2 alt');
    const back = changesOf(file.replace('\nA map\n', '\nA map of the route\n')).get('bluesky')!;
    expect(back.alt).toEqual(new Map([[0, 'Top']]));
    expect(back.partAlt).toEqual(new Map([[1, new Map([[0, 'A map of the route'], [1, null]])]]));
    // Split again (--thread), each new part keeps the media of the part whose place it takes: the alt blocks go with them.
    const [platform, section] = [...read(file).sections][0]!;
    expect(sectionChange(platform, section, true).partAlt).toEqual(new Map([[1, new Map([[0, 'A map'], [1, null]])]]));
  });

  it('a part alt block where the platform takes no threads is named by its line', () => {
    const file = editorFile('post_1', new Map([['linkedin', { text: 'Hello', media: [{ name: 'a.png' }] }]])).replace('--- alt 1: a.png ---', '--- part 2 alt 1: a.png ---');
    expect(read(file).issues).toEqual([expect.objectContaining({ field: `line ${lineOf(file, '--- part 2 alt 1: a.png ---')}`, message: expect.stringContaining('linkedin publishes no threads, so there is no part 2') })]);
  });

  it('an emptied block removes the value; a deleted block leaves it as it is', () => {
    const file = editorFile('post_1', new Map([['youtube', { text: 'Watch', firstComment: 'Thanks!', options: { privacy: 'private' } }]]));
    const emptied = changesOf(file.replace('\nThanks!\n', '\n\n').replace('privacy = private', 'privacy =')).get('youtube')!;
    expect([emptied.firstComment, emptied.options]).toEqual([null, {}]);
    const deleted = changesOf(file.replace(/\n--- first comment ---[\s\S]*$/, '\n')).get('youtube')!;
    expect('firstComment' in deleted || 'options' in deleted).toBe(false);
  });

  it('an options line that is not KEY = VALUE is named by its line', () => {
    const file = editorFile('post_1', new Map([['youtube', { text: 'Watch' }]])).replace('privacy = ', 'privacy unlisted');
    expect(read(file).issues).toEqual([expect.objectContaining({ field: `line ${lineOf(file, 'privacy unlisted')}`, message: expect.stringContaining('"privacy unlisted" is not KEY = VALUE') })]);
  });
});

describe('the editor file judged by the rules the flags use', () => {
  const post: Post = {
    id: 'post_1',
    status: 'draft',
    payloads: {
      youtube: { text: 'Watch', media: [{ url: 'https://cdn.example/v.mp4', type: 'video' }], options: { privacy: 'public' } },
      bluesky: { text: 'Hi', thread: [{ text: 'Two', media: [{ url: 'https://cdn.example/map.png', type: 'image', alt: 'A map' }] }] },
    },
    scheduledAt: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    title: 'A video',
  };
  const inspect = async (m: { source: string }) => ({ exists: true, isFile: false, sizeBytes: undefined, mimeType: m.source.endsWith('.png') ? 'image/png' : 'video/mp4', extensionMime: undefined });
  const plan = (file: string) => {
    const c = changesOf(file);
    const textFor = new Map([...c].map(([p, v]) => [p, v.text]));
    const payloadEdits = new Map<string, PayloadEdit>([...c].map(([p, { text: _t, ...edit }]) => [p, edit]));
    return planEdit(post, { textFor, payloadEdits }, { inspect });
  };
  const fileOf = () => editorFile(post.id, new Map(Object.entries(post.payloads).map(([p, v]) => [p, editorPayload(v as Record<string, unknown>)])));

  it('a bad option value names its line and what the setting takes; nothing is planned', async () => {
    const file = fileOf().replace('privacy = public', 'privacy = unlistd');
    const err = await plan(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputError);
    const issue = (err as InvalidInputError).issues[0]!;
    expect(issue.field).toBe(`line ${lineOf(file, 'privacy = unlistd')} (youtube option privacy)`);
    expect(issue.message).toContain('"unlistd" is not a value of youtube.privacy');
    expect(issue.fix).toContain('did you mean "unlisted"?');
  });

  it('a first comment on a platform that takes none, and a thread part too long, are named by their lines', async () => {
    const long = 'word '.repeat(80).trim();
    const file = fileOf().replace('\nTwo\n', `\nTwo\n---\n${long}\n\n--- first comment ---\nHello\n`);
    const err = (await plan(file).catch((e: unknown) => e)) as InvalidInputError;
    const fields = err.issues.map((i) => i.field);
    expect(fields).toContain(`line ${lineOf(file, long)} (bluesky thread part 3)`);
    expect(fields).toContain(`line ${lineOf(file, 'Hello')} (bluesky first comment)`);
  });

  it("a thread part's alt text over the platform's limit is named by its line and part, with the fix", async () => {
    const file = fileOf().replace('\nA map\n', `\n${'m'.repeat(2001)}\n`);
    const err = (await plan(file).catch((e: unknown) => e)) as InvalidInputError;
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.issues).toEqual([
      { field: `line ${lineOf(file, 'm'.repeat(2001))} (bluesky thread part 2 alt text 1)`, message: expect.stringContaining('thread part 2: alt text of 2001 characters; Bluesky takes at most 2000'), fix: 'shorten it by 1' },
    ]);
  });

  it('an alt block for media or a part that is not there is named by its line', async () => {
    const file = fileOf().replace('--- part 2 alt 1: map.png ---', '--- part 2 alt 2: map.png ---');
    const noMedia = (await plan(file).catch((e: unknown) => e)) as InvalidInputError;
    expect(noMedia.issues.map((i) => i.message)).toEqual([`line ${lineOf(file, 'A map')} (bluesky thread part 2 alt text 2): bluesky thread part 2 has one media item, so there is no media 2 to describe`]);
    const gone = fileOf().replace('\nTwo\n', '\n');
    const noPart = (await plan(gone).catch((e: unknown) => e)) as InvalidInputError;
    expect(noPart.issues.map((i) => i.message)).toEqual([`line ${lineOf(gone, 'A map')} (bluesky thread part 2 alt text 1): the bluesky thread has one part, so there is no part 2`]);
  });

  it('only the payloads that changed are planned, with the new values', async () => {
    const same = await plan(fileOf());
    expect(same.unchanged).toBe(true);
    const changed = await plan(fileOf().replace('privacy = public', 'privacy = UNLISTED').replace('madeForKids = ', 'madeForKids = no'));
    expect(changed.draft.platforms.map((p) => p.platform)).toEqual(['youtube']);
    expect(changed.draft.platforms[0]!.options).toEqual({ privacy: 'unlisted', madeForKids: false });
    const thread = await plan(fileOf().replace('\nTwo\n', '\nTwo\n---\nThree\n'));
    expect(thread.draft.platforms.map((p) => [p.platform, p.text, p.thread?.map((t) => t.text)])).toEqual([['bluesky', 'Hi', ['Two', 'Three']]]);
    const alt = await plan(fileOf().replace('\nA map\n', '\nA map of the route\n'));
    expect(alt.draft.platforms.map((p) => [p.platform, p.thread?.map((t) => t.media.map((m) => [m.source, m.alt]))])).toEqual([['bluesky', [[['https://cdn.example/map.png', 'A map of the route']]]]]);
  });
});
