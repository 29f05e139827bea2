// R6: bad input is refused locally. Every case exits 2, names the field, and sends nothing: the
// sandbox's request log is unchanged (the CLI points at a live sandbox with a valid key, so a
// request would have been logged had one gone out).
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { JPEG_HEAD, PNG_HEAD, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-r6-'));
const f = (name: string) => join(dir, name);

beforeAll(async () => {
  sb = await manualSandbox();
  writeFileSync(f('photo.png'), PNG_HEAD);
  writeFileSync(f('photo.jpg'), JPEG_HEAD);
  writeFileSync(f('big.jpg'), JPEG_HEAD);
  truncateSync(f('big.jpg'), 6 * 1024 * 1024);
  writeFileSync(f('disguised.jpg'), PNG_HEAD);
  writeFileSync(f('notes.txt'), 'not an image at all');
  mkdirSync(f('folder'));
  writeFileSync(f('trailing-comma.json'), '{\n  "payloads": {\n    "bluesky": {"text": "hi"},\n  }\n}\n');
  writeFileSync(f('unknown-platform.json'), JSON.stringify({ payloads: { mastodon: { text: 'hi' } } }));
  writeFileSync(f('typo-key.json'), JSON.stringify({ payload: { bluesky: { text: 'hi' } } }));
  writeFileSync(f('text-number.json'), JSON.stringify({ payloads: { bluesky: { text: 42 } } }));
  writeFileSync(f('with-time.json'), JSON.stringify({ payloads: { bluesky: { text: 'hi' } }, scheduledAt: '2026-12-24T09:00:00Z' }));
  writeFileSync(f('past-time.json'), JSON.stringify({ payloads: { bluesky: { text: 'hi' } }, scheduledAt: '2020-12-24T09:00:00Z' }));
  writeFileSync(f('bad-rows.csv'), 'at,platforms,text\n2026-12-24T09:00:00Z,bluesky,ok\n2026-12-24T09:00:00Z,blusky,typo\n');
  writeFileSync(f('no-media.csv'), 'at,platforms,text\n2026-12-24T09:00:00Z,instagram,no picture\n');
  writeFileSync(f('titel.json'), JSON.stringify({ payloads: { bluesky: { text: 'hi' } }, titel: 'x' }));
  writeFileSync(f('bad-header.csv'), 'when,platforms,text\n2026-12-24T09:00:00Z,bluesky,ok\n');
  writeFileSync(f('text-for-typo.csv'), 'at,platforms,text,text:blusky\n2026-12-24T09:00:00Z,bluesky,hi,hello bluesky\n');
  writeFileSync(f('good.csv'), 'at,platforms,text\n2026-12-24T09:00:00Z,bluesky,ok\n');
  writeFileSync(f('bad-line.ndjson'), '{"payloads":{"bluesky":{"text":"ok"}},"scheduledAt":"2026-12-24T09:00:00Z"}\n{"payloads": nope}\n');
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const long = (n: number) => 'x'.repeat(n);
const create = (...args: string[]) => ['posts', 'create', ...args];
const schedule = (...args: string[]) => ['posts', 'schedule', ...args];

// [what, argv, the field the message must name, more of the message]
const CASES: Array<[string, string[], string, RegExp]> = [
  // platforms
  ['misspelt platform', create('--platform', 'twiter', '--text', 'hi'), '--platform', /did you mean "twitter-x"/],
  ['nickname platform', create('--platform', 'facebook', '--text', 'hi'), '--platform', /did you mean "facebook-page"/],
  ['unknown platform via --text-for', create('--text-for', 'mastodon=hi'), '--platform', /"mastodon" is not a platform id/],
  ['no platform at all', create('--text', 'hi'), '--platform', /missing --platform/],
  // text
  ['empty text', create('--platform', 'bluesky', '--text', ''), '--text', /empty/],
  ['blank text', create('--platform', 'bluesky', '--text', '   '), '--text', /empty/],
  ['text over the X limit', create('--platform', 'twitter-x', '--text', long(281)), '--text', /281 characters is 1 over twitter-x's limit of 280/],
  ['per-platform text over the limit', create('--platform', 'twitter-x', '--platform', 'bluesky', '--text', 'short', '--text-for', `bluesky=${long(310)}`), '--text-for bluesky', /10 over bluesky's limit of 300/],
  ['--text-for naming a misspelt platform', create('--platform', 'bluesky', '--text', 'hi', '--text-for', 'blusky=x'), '--text-for blusky', /"blusky" is not a platform id[\s\S]*did you mean --text-for bluesky=/],
  ['--text-for naming a platform outside the targets', create('--platform', 'threads', '--text', 'hi', '--text-for', 'bluesky=y'), '--text-for bluesky', /add it to the targets \(--platform threads,bluesky\)/],
  ['--text-for alone naming a misspelt platform', create('--text-for', 'blusky=x'), '--text-for', /"blusky" is not a platform id[\s\S]*did you mean "bluesky"/],
  ['instagram row without media', schedule('--from-file', f('no-media.csv')), 'line 2: media', /add a media column/],
  ['misspelt field in a --file body', create('--file', f('titel.json')), 'titel', /did you mean "title"\?/],
  ['a zone given by its city', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '+1h', '--tz', 'paris'), '--tz', /did you mean "Europe\/Paris"/],
  ['a local time long past', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '2025-01-01 09:00'), '--at', /in the past by 1 year 11 months/],
  ['--text-for without =', create('--platform', 'bluesky', '--text-for', 'bluesky'), '--text-for', /not platform=text/],
  ['text missing for one platform', create('--platform', 'linkedin,bluesky', '--text-for', 'bluesky=hi'), '--text', /missing --text/],
  // A slip in what was given is named, not reported as the text it failed to give.
  ['--text-for naming a misspelt platform, no --text', create('--platform', 'bluesky', '--text-for', 'blusky=hi'), '--text-for blusky', /^error: --text-for blusky: "blusky" is not a platform id[\s\S]*did you mean --text-for bluesky=/],
  ['the same on schedule', schedule('--platform', 'bluesky', '--text-for', 'blusky=hi', '--at', '+1h'), '--text-for blusky', /^error: --text-for blusky: "blusky" is not a platform id[\s\S]*did you mean --text-for bluesky=/],
  ['--text-for outside the targets, no --text', create('--platform', 'linkedin', '--text-for', 'bluesky=hi'), '--text-for bluesky', /^error: --text-for bluesky: bluesky is not among the targets/],
  ['misspelt platform, no --text', create('--platform', 'blusky'), '--platform', /^error: [^\n]*"blusky" is not a platform id[\s\S]*did you mean "bluesky"/],
  ['empty title', create('--platform', 'bluesky', '--text', 'hi', '--title', ''), '--title', /empty/],
  // Blank values (an unset shell variable): refused before the post is read, never taken as a
  // removal ("" removes a title or first comment), a flag left out, or a crash.
  ['blank title on edit', ['posts', 'edit', 'post_x', '--title', ' '], '--title', /^error: --title is blank\n\s+hint: give the title some text, or remove it with --title ""/],
  ['blank text on edit', ['posts', 'edit', 'post_x', '--text', ' '], '--text', /^error: --text is blank\n\s+hint: write the text of the post/],
  ['blank --text-for on edit', ['posts', 'edit', 'post_x', '--text-for', 'bluesky= '], '--text-for bluesky', /^error: --text-for bluesky is blank/],
  ['blank first comment on edit', ['posts', 'edit', 'post_x', '--first-comment', '  '], '--first-comment', /^error: --first-comment is blank\n\s+hint: give the first comment some text, or remove it with --first-comment ""/],
  ['blank --platform on edit', ['posts', 'edit', 'post_x', '--platform', ' '], '--platform', /^error: --platform: give a platform id\n\s+hint: platforms: twitter-x,/],
  ['blank --remove-platform on edit', ['posts', 'edit', 'post_x', '--remove-platform', ' '], '--remove-platform', /^error: --remove-platform: give a platform id/],
  ['blank --account on edit', ['posts', 'edit', 'post_x', '--account', ' '], '--account', /^error: --account: give an account id, @handle or platform:@handle/],
  ['blank --account on create', create('--platform', 'bluesky', '--text', 'hi', '--account', ' '), '--account', /^error: --account: give an account id, @handle or platform:@handle/],
  ['blank --platform beside a good one', create('--platform', 'bluesky', '--platform', ' ', '--text', 'hi'), '--platform', /^error: --platform: give a platform id/],
  ['blank --platform on check', ['posts', 'check', '--platform', '', '--text', 'hi'], '--platform', /^error: --platform: give a platform id/],
  ['blank status filter', ['posts', 'list', '--status', ' '], '--status', /^error: --status: give a post status\n\s+hint: statuses: draft, scheduled, published, failed/],
  // media
  ['media file missing', create('--platform', 'bluesky', '--text', 'hi', '--media', f('nope.jpg')), '--media', /no such file/],
  ['media type the platform does not take', create('--platform', 'instagram', '--text', 'hi', '--media', f('photo.png')), '--media', /instagram does not take image\/png/],
  ['media over the size limit', create('--platform', 'twitter-x', '--text', 'hi', '--media', f('big.jpg')), '--media', /6 MB is over twitter-x's image limit of 5 MB by 1 MB/],
  ['too many media', create('--platform', 'bluesky', '--text', 'hi', ...Array(5).fill(['--media', f('photo.jpg')]).flat()), '--media', /5 items, bluesky takes at most 4/],
  ['required media absent', create('--platform', 'youtube', '--text', 'hi'), '--media', /youtube needs at least one video/],
  // Judged by its content: a PNG named .jpg, where the platform takes no PNG.
  ['disguised media', create('--platform', 'instagram', '--text', 'hi', '--media', f('disguised.jpg')), '--media', /instagram does not take image\/png/],
  ['not media at all', create('--platform', 'bluesky', '--text', 'hi', '--media', f('notes.txt')), '--media', /unknown media type/],
  ['a folder as media', create('--platform', 'bluesky', '--text', 'hi', '--media', f('folder')), '--media', /not a regular file/],
  ['URL of a type the platform does not take', create('--platform', 'youtube', '--text', 'hi', '--media', 'https://cdn.example/a.jpg'), '--media', /youtube does not take image\/jpeg/],
  // times
  ['time in the past', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '2026-11-30T09:00:00Z'), '--at', /in the past/],
  ['unreadable time', schedule('--platform', 'bluesky', '--text', 'hi', '--at', 'next tuesday'), '--at', /not a time I can read/],
  ['local time in a DST gap', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '2027-03-14 02:30', '--tz', 'America/New_York'), '--at', /does not exist in America\/New_York/],
  ['impossible date', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '2027-02-30 10:00'), '--at', /not a real date/],
  ['zero relative time', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '+0m'), '--at', /not in the future/],
  ['missing --at', schedule('--platform', 'bluesky', '--text', 'hi'), '--at', /missing --at/],
  ['a draft scheduled in the past', schedule('post_x', '--at', '2026-01-01T00:00:00Z'), '--at', /in the past/],
  // zones
  ['unknown zone', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '2026-12-24 09:00', '--tz', 'Mars/Base'), '--tz', /not a known time zone/],
  ['misspelt zone', schedule('--platform', 'bluesky', '--text', 'hi', '--at', '+1h', '--tz', 'Europe/Pari'), '--tz', /did you mean "Europe\/Paris"/],
  // JSON files
  ['malformed JSON file', create('--file', f('trailing-comma.json')), '--file', /invalid JSON at line 4, column 3: trailing comma/],
  ['missing JSON file', create('--file', f('nope.json')), '--file', /no such file/],
  ['unknown platform in a file', create('--file', f('unknown-platform.json')), 'payloads', /"mastodon" is not a platform id/],
  ['misspelt key in a file', create('--file', f('typo-key.json')), 'payload', /payload: unknown field/],
  ['text of the wrong type in a file', create('--file', f('text-number.json')), 'payloads.bluesky.text', /expected a string/],
  ['a time in a draft body', create('--file', f('with-time.json')), 'scheduledAt', /posts create makes a draft/],
  ['a past time in a file', schedule('--file', f('past-time.json')), 'scheduledAt', /in the past/],
  ['bulk file with a bad row', schedule('--from-file', f('bad-rows.csv')), 'line 3: platforms', /1 of 2 rows .* are invalid/],
  ['bulk CSV with a bad header', schedule('--from-file', f('bad-header.csv')), 'header', /"when" is not a known column/],
  // A text:<platform> column for no platform was dropped: the row went out with the shared text.
  ['bulk CSV with a misspelt text:<platform> column', schedule('--from-file', f('text-for-typo.csv')), 'header column 4 "text:blusky"', /"blusky" is not a platform id[\s\S]*did you mean "text:bluesky"\?/],
  ['the same under --dry-run', schedule('--from-file', f('text-for-typo.csv'), '--dry-run'), 'header column 4 "text:blusky"', /did you mean "text:bluesky"\?/],
  ['the same in posts check', ['posts', 'check', '--from-file', f('text-for-typo.csv')], 'header column 4 "text:blusky"', /did you mean "text:bluesky"\?/],
  ['bulk NDJSON with a broken line', schedule('--from-file', f('bad-line.ndjson')), 'line 2', /invalid JSON/],
  // Each row names its own accounts (the account column): --account was dropped without a word.
  ['bulk file with --account', schedule('--from-file', f('good.csv'), '--account', '@someone'), '--account', /--from-file cannot be combined with --account[\s\S]*account column/],
  ['bulk file with --account under --dry-run', schedule('--from-file', f('good.csv'), '--account', '@someone', '--dry-run'), '--account', /--from-file cannot be combined with --account/],
  ['bulk file with post options the rows carry', schedule('--from-file', f('good.csv'), '--thread', '--first-comment', 'c', '--option', 'youtube.privacy=unlisted', '--text-file', f('notes.txt')), '--text-file', /cannot be combined with --text-file, --thread, --first-comment, --option/],
  // flags
  ['unusable idempotency key', create('--platform', 'bluesky', '--text', 'hi', '--idempotency-key', 'has space'), '--idempotency-key', /not a usable key/],
  ['--file with payload flags', create('--file', f('typo-key.json'), '--platform', 'bluesky'), '--file', /cannot be combined with --platform/],
  ['draft id with payload flags', schedule('post_x', '--text', 'hi', '--at', '+1h'), '--text', /cannot be combined/],
  ['unknown status filter', ['posts', 'list', '--status', 'sent'], '--status', /not a post status/],
  ['bad --limit', ['posts', 'list', '--limit', 'ten'], '--limit', /not a whole number/],
  ['misspelt option', create('--platfrom', 'bluesky', '--text', 'hi'), '--platfrom', /unknown option/],
  ['invalid input under --dry-run', create('--platform', 'bluesky', '--text', long(301), '--dry-run'), '--text', /1 over/],
  // --fields that the printed post cannot have: told before the post is made, not after
  ['unknown --fields on create', ['--fields', 'id,nope', ...create('--platform', 'bluesky', '--text', 'hi', '--json')], '--fields', /unknown field "nope"; the fields are: id, status/],
  ['unknown --fields on schedule', ['--fields', 'stauts', ...schedule('--platform', 'bluesky', '--text', 'hi', '--at', '+1h', '--json')], '--fields', /unknown field "stauts"/],
  ['unknown --fields on edit', ['--fields', 'nope', 'posts', 'edit', 'post_x', '--text', 'hi'], '--fields', /unknown field "nope"/],
  ['unknown --fields on results retry', ['--fields', 'nope', 'results', 'retry', 'post_x'], '--fields', /unknown field "nope"/],
  // a dry run prints its report, not a post: its fields are the ones to name
  ['unknown --fields on create --dry-run', ['--fields', 'nope', ...create('--platform', 'bluesky', '--text', 'hi', '--dry-run')], '--fields', /unknown field "nope"; the fields are: dryRun, valid, issues, requests, notes/],
  ['a post field on schedule --dry-run --json', ['--fields', 'id', ...schedule('--platform', 'bluesky', '--text', 'hi', '--at', '+1h', '--dry-run', '--json')], '--fields', /unknown field "id"; the fields are: dryRun/],
  ['unknown --fields on edit --dry-run', ['--fields', 'nope', 'posts', 'edit', 'post_x', '--text', 'hi', '--dry-run'], '--fields', /unknown field "nope"; the fields are: dryRun/],
  ['unknown --fields on bulk --dry-run', ['--fields', 'nope', ...schedule('--from-file', f('good.csv'), '--dry-run')], '--fields', /unknown field "nope"; the fields are: dryRun/],
  ['unknown --fields on delete --dry-run', ['--fields', 'nope', 'posts', 'delete', 'post_x', '--dry-run'], '--fields', /unknown field "nope"; the fields are: dryRun/],
  // and a write that prints rows is not made when it cannot print them as asked
  ['unknown --fields on a bulk run', ['--fields', 'nope', ...schedule('--from-file', f('good.csv'))], '--fields', /unknown field "nope"; the fields are: row, line, outcome, id, status, scheduled, error, scheduledAt/],
  ['unknown --fields on delete', ['--fields', 'nope', 'posts', 'delete', 'post_x', '--yes'], '--fields', /unknown field "nope"; the fields are: id, result, was, deleted/],
  ['unknown --fields on unschedule', ['--fields', 'nope', 'posts', 'unschedule', 'post_x'], '--fields', /unknown field "nope"; the fields are: id, status/],
  // posts check: the columns, or under --json the report's fields; before any file is read
  ['unknown --fields on posts check', ['--fields', 'nope', 'posts', 'check', '--file', f('nope.json')], '--fields', /unknown field "nope"; the fields are: target, rule, verdict, item, actual, limit, note/],
  ['unknown --fields on posts check --json', ['--fields', 'nope', 'posts', 'check', '--platform', 'bluesky', '--text', 'hi', '--json'], '--fields', /unknown field "nope"; the fields are: accepted, problems, targets/],
];

describe('bad input is refused before any request', () => {
  it(`has at least 25 cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES)('%s', async (_what, argv, field, message) => {
    const before = sb.requests.length;
    const r = await runCli(argv, { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(field);
    expect(r.stderr).toMatch(message);
    expect(sb.requests.length).toBe(before);
  });

  it('the same command with the problem fixed does send (so "nothing sent" above is meaningful)', async () => {
    const before = sb.requests.length;
    const r = await runCli(create('--platform', 'twitter-x', '--text', 'fine'), { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    expect(sb.requests.length).toBeGreaterThan(before);
  });

  it('--fields on a dry run picks from its report, as JSON and as a record in text; nothing sent', async () => {
    const before = sb.requests.length;
    const json = await runCli(['--fields', 'valid,requests', ...create('--platform', 'bluesky', '--text', 'fine', '--dry-run', '--json')], { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ valid: true, requests: [expect.objectContaining({ method: 'POST', path: '/v1/posts' })] });
    const text = await runCli(['--fields', 'valid', ...schedule('--from-file', f('good.csv'), '--dry-run')], { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trim()).toMatch(/^valid\s+true$/);
    const check = await runCli(['--fields', 'accepted', 'posts', 'check', '--platform', 'bluesky', '--text', 'fine', '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ accepted: true });
    expect(sb.requests.length).toBe(before);
  });

  it('--fields naming what a post has, or a path inside it, is sent and picks it', async () => {
    const r = await runCli(['--fields', 'id,title,payloads.bluesky.text', ...create('--platform', 'bluesky', '--text', 'fine', '--json')], { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: expect.stringMatching(/^post_/), title: null, payloads: { bluesky: { text: 'fine' } } });
  });
});
