// Media given as an address the client cannot take (ftp://, file:///, s3://, data:): refused as
// such, naming the field and the fix, wherever media are given (flags, a --file body, a bulk row,
// an MCP tool's media list), instead of being looked for as a local file. Windows drive paths and
// relative paths with a ':' later on stay files; plain http:// stays the platform rule's to refuse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectFacts } from '../../src/posts/body.js';
import { parseBulk } from '../../src/posts/bulk/rows.js';
import { composeInput } from '../../src/posts/compose-input.js';
import { draftFromBody, draftFromFlags, isAddress, type Issue, type PostDraft } from '../../src/posts/draft.js';
import { mediaInspector } from '../../src/posts/media-facts.js';
import { validateDraft } from '../../src/posts/validate.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import { png } from '../helpers/media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'posts-media-address-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function check(draft: PostDraft, platformRules = true): Promise<Issue[]> {
  const facts = await collectFacts([draft], mediaInspector());
  return validateDraft(draft, (m) => facts.get(m), { platformRules });
}

const fromFlags = (media: string[], platform = ['bluesky']) => {
  const issues: Issue[] = [];
  const draft = draftFromFlags({ platform, text: 'Hello', media }, (p) => resolve(dir, p), issues);
  expect(issues).toEqual([]);
  return draft;
};

const FIX = 'download it first and give the local file, or give its https:// URL';

describe('which media sources are addresses', () => {
  it('ftp, file, s3 and data URLs are addresses; so are http(s) ones, in any case', () => {
    for (const s of ['ftp://host/a.png', 'file:///tmp/a.png', 'file:/tmp/a.png', 's3://bucket/x.mp4', 'data:image/png;base64,iVBORw0KGgo=', 'HTTPS://cdn.example/a.png', 'http://cdn.example/a.png', ' ftp://host/a.png ']) {
      expect(isAddress(s), s).toBe(true);
    }
  });

  it('Windows drive paths and relative paths with a ":" later on are paths', () => {
    for (const s of ['C:\\x.png', 'C:/x.png', 'c:\\media\\a.png', './a:b.png', 'a:b.png', 'shots/12:30.png', '/tmp/a.png', 'photo.jpg', '\\\\server\\share\\a.png']) {
      expect(isAddress(s), s).toBe(false);
    }
  });
});

describe('refused with the field and the fix', () => {
  it('--media ftp://…: one problem, however many platforms, and not "no such file"', async () => {
    const issues = await check(fromFlags(['ftp://host/a.png'], ['bluesky', 'twitter-x']));
    expect(issues).toEqual([{ field: '--media ftp://host/a.png', message: '--media ftp://host/a.png: only https:// URLs or local files are taken', fix: FIX }]);
  });

  it('file:///, s3:// and data: the same; also with the platform rules left to the service', async () => {
    for (const source of ['file:///tmp/a.png', 's3://bucket/x.mp4', 'data:image/png;base64,iVBORw0KGgo=']) {
      for (const rules of [true, false]) {
        expect(await check(fromFlags([source]), rules), `${source} rules=${rules}`).toEqual([{ field: `--media ${source}`, message: `--media ${source}: only https:// URLs or local files are taken`, fix: FIX }]);
      }
    }
  });

  it('a long data: URL is quoted by its start only', async () => {
    const source = `data:image/png;base64,${'A'.repeat(100_000)}`;
    const [issue] = await check(fromFlags([source]));
    expect(issue?.message).toBe(`--media ${source.slice(0, 40)}…: only https:// URLs or local files are taken`);
    expect(issue?.field).toBe(`--media ${source.slice(0, 40)}…`);
  });

  it('in a --file body, named by its place in the body', async () => {
    const issues: Issue[] = [];
    const body = { payloads: { bluesky: { text: 'Hi', media: [{ url: 'ftp://host/a.png' }, 'file:///tmp/b.png'] } } };
    const { draft } = draftFromBody(body, 'post.json: ', (p) => resolve(dir, p), issues, { schedule: false });
    expect(issues).toEqual([]);
    expect((await check(draft!)).map((i) => i.message)).toEqual([
      'post.json: payloads.bluesky.media[0].url: only https:// URLs or local files are taken',
      'post.json: payloads.bluesky.media[1].url: only https:// URLs or local files are taken',
    ]);
  });

  it('in a bulk row, CSV or NDJSON, named by its line', async () => {
    const options = { baseDir: dir, zone: 'UTC', now: Date.parse('2026-06-01T12:00:00Z') };
    const csv = parseBulk('at,platforms,text,media\n2026-12-01T09:00:00Z,bluesky,Hi,s3://bucket/x.mp4\n', { ...options, label: 'plan.csv' });
    const ndjson = parseBulk(`${JSON.stringify({ scheduledAt: '2026-12-01T09:00:00Z', payloads: { bluesky: { text: 'Hi', media: [{ url: 'ftp://host/a.png' }] } } })}\n`, { ...options, label: 'plan.ndjson' });
    expect(csv.rows).toHaveLength(1);
    expect(ndjson.rows).toHaveLength(1);
    expect(csv.rows[0]!.issues).toEqual([]);
    expect((await check(csv.rows[0]!.draft!)).map((i) => i.message)).toEqual(['line 2: media s3://bucket/x.mp4: only https:// URLs or local files are taken']);
    expect((await check(ndjson.rows[0]!.draft!)).map((i) => i.message)).toEqual(['line 1: payloads.bluesky.media[0].url: only https:// URLs or local files are taken']);
  });

  it('in an MCP tool\'s media list: named media[i], not called a relative path', async () => {
    const err = await composeInput({ platforms: ['bluesky'], text: 'Hi', media: ['https://cdn.example/ok.png', 'file:///tmp/a.png'] }, { mode: 'create', now: Date.parse('2026-06-01T12:00:00Z') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputError);
    expect((err as InvalidInputError).issues).toEqual([{ field: 'media[1]', message: 'media[1]: only https:// URLs or local files are taken', fix: FIX }]);
  });
});

describe('what stays as it was', () => {
  it('a Windows drive path is looked for as a file; ./a:b.png is read as one', async () => {
    expect(await check(fromFlags(['C:\\x.png']))).toMatchObject([{ field: '--media C:\\x.png', message: '--media C:\\x.png: no such file' }]);
    writeFileSync(join(dir, 'a:b.png'), png(64, 64));
    expect(await check(fromFlags(['./a:b.png']))).toEqual([]);
  });

  it('plain http:// is refused by the platform rule (and left to the service without local checks)', async () => {
    const [issue] = await check(fromFlags(['http://cdn.example/a.png']));
    expect(issue?.message).toContain('an http:// URL; the platforms fetch media over https only');
    expect(await check(fromFlags(['http://cdn.example/a.png']), false)).toEqual([]);
  });
});
