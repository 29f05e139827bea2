// A text longer than any platform takes (with a margin) is refused by the argument check, naming
// the field and the limit, before it is counted, split into thread parts or judged for every
// platform, and before anything is sent: a 5 MB text in check_post used to cost seconds of CPU
// for an answer too large to send. Texts any platform takes still pass that check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT } from '../../src/mcp/tools/fields.js';
import { PLATFORM_LIMITS, PLATFORMS } from '../../src/wire/platforms.js';
import { PLATFORM_EXTRAS } from '../../src/wire/post-extras.js';
import { startSdkSession, type SdkSession } from '../helpers/mcp-sdk-client.js';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let s: SdkSession;
let draftId: string;
const AT = '2027-01-15T09:00:00.000Z';
const ALL = [...PLATFORMS];
const words = (n: number) => 'Launch day, and a few words about it. '.repeat(Math.ceil(n / 38)).slice(0, n);

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 0 });
  s = await startSdkSession([], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo') } });
  const draft = await s.call('create_draft', { platforms: ['linkedin'], text: 'a draft to update' });
  draftId = draft.structuredContent.post.id as string;
});
afterAll(async () => {
  expect(await s?.close()).toBe(0);
  await sb?.close();
});

describe('the longest text taken', () => {
  it('is twice the most any platform takes, in one post or a whole thread (Facebook: 63,206)', () => {
    const most = Math.max(...PLATFORMS.map((p) => PLATFORM_LIMITS[p].maxText * (PLATFORM_EXTRAS[p].thread?.maxParts ?? 1)));
    expect(most).toBe(63_206);
    expect(MAX_TEXT).toBe(2 * most);
  });

  it('refuses a 5 MB text in check_post at once, naming text and the limit', async () => {
    const r = await s.call('check_post', { platforms: ALL, text: words(5_000_000), thread: true });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({
      code: 'invalid_input',
      field: 'text',
      message: `text: is longer than ${MAX_TEXT} characters`,
      issues: [{ field: 'text', fix: 'no platform takes a text this long: the most any takes is 63206 characters (Facebook); shorten it' }],
    });
  });

  it('is refused in every tool that takes text, and in text_for, first_comment and alt, sending nothing', async () => {
    const long = words(MAX_TEXT + 1);
    const from = sb.requests.length;
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['check_post', { platforms: ['facebook-page'], text: long }, 'text'],
      ['preview_post', { platforms: ['facebook-page'], text: long }, 'text'],
      ['create_draft', { platforms: ['facebook-page'], text: long }, 'text'],
      ['schedule_post', { platforms: ['facebook-page'], text: long, at: AT }, 'text'],
      ['update_post', { post_id: draftId, text: long }, 'text'],
      ['create_draft', { text_for: { 'facebook-page': long } }, 'text_for.facebook-page'],
      ['update_post', { post_id: draftId, first_comment: words(20_001) }, 'first_comment'],
      ['check_post', { platforms: ['youtube'], text: 'x', first_comment: words(20_001) }, 'first_comment'],
      ['create_draft', { platforms: ['linkedin'], text: 'x', media: ['https://example.com/a.png'], alt: [words(8_173)] }, 'alt[0]'],
    ];
    for (const [name, args, field] of calls) {
      const r = await s.call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent, `${name} ${field}`).toMatchObject({ code: 'invalid_input', field, message: expect.stringMatching(/^\S+: is longer than \d+ characters$/) });
      expect(r.structuredContent.issues[0].fix).toMatch(/^no platform takes an? (text|first comment|alt text) this long: the most any takes is \d+ characters \([A-Za-z]+\); shorten it$/);
    }
    expect(sb.requests.slice(from)).toEqual([]);
  });

  it('lets a text Facebook takes through to the platform rules, and judges a longer one by them', async () => {
    const fits = await s.call('check_post', { platforms: ['facebook-page'], text: words(63_206) });
    expect(fits.structuredContent).toMatchObject({ accepted: true });
    // Over Facebook's limit but under the ceiling: the platform's own rule says by how much.
    const over = await s.call('check_post', { platforms: ['facebook-page'], text: words(MAX_TEXT) });
    expect(over.structuredContent).toMatchObject({ accepted: false, problems: [{ field: 'text', message: `text: Facebook counts this text as ${MAX_TEXT}, 63206 over its limit of 63206` }] });
  });

  it('update_post still takes "" for first_comment (it removes the comment)', async () => {
    const r = await s.call('update_post', { post_id: draftId, first_comment: '' });
    expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  });
});
