import { describe, expect, it } from 'vitest';
import { PassThrough, Writable } from 'node:stream';
import { resultColumns, resultLinkOrError } from '../../src/output/result-columns.js';
import { renderResult } from '../../src/output/result-detail.js';
import { followLine } from '../../src/cli/commands/results/list-follow.js';
import { BatchingSink } from '../../src/output/batching-sink.js';
import { createOutput } from '../../src/output/output.js';
import { ndjsonWriter, tableWriter, tsvWriter } from '../../src/output/writers.js';
import { plainColors } from '../../src/output/colors.js';
import { displayWidth } from '../../src/output/width.js';
import { captureStream } from '../helpers/run-cli.js';
import type { PostResult } from '../../src/wire/schemas.js';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const success: PostResult = {
  id: 'res_1',
  post_id: 'post_1',
  success: true,
  social_account_id: 'acc_1',
  platform_data: { id: '1789', url: 'https://x.com/acme/status/1789', username: 'acme' },
  error: null,
  platform: 'twitter-x',
  created_at: '2026-12-01T09:00:00.000Z',
};
const failure: PostResult = {
  id: 'res_2',
  post_id: 'post_1',
  success: false,
  social_account_id: null,
  platform_data: { id: 'ig_9', url: null, username: 'acme.ig' },
  error: { code: 'MEDIA_REJECTED', message: 'image too large', context: { maxBytes: 8388608, got: 9000000 } },
  platform: 'instagram',
  created_at: '2026-12-01T11:58:00.000Z',
  attempt: 2,
};
// The bare minimum the spec promises: no platform, no created_at, no platform_data.
const sparse = { id: 'res_3', post_id: 'post_2', success: false, social_account_id: null, error: null } as PostResult;

async function render(rows: PostResult[], kind: 'tsv' | 'table', width = 200): Promise<string> {
  const out = captureStream();
  const cols = resultColumns(() => NOW);
  const w = kind === 'tsv' ? tsvWriter(out, cols) : tableWriter(out, cols, plainColors, width);
  for (const r of rows) await w.write(r);
  await w.end();
  return out.text();
}

describe('result rows', () => {
  it('TSV: stable columns, raw values, RFC 3339 times, one line per row', async () => {
    const text = await render([success, failure, sparse], 'tsv');
    expect(text.split('\n')).toEqual([
      'success\tres_1\tpost_1\ttwitter-x\tacme\t2026-12-01T09:00:00.000Z\thttps://x.com/acme/status/1789',
      'failure\tres_2\tpost_1\tinstagram\tacme.ig\t2026-12-01T11:58:00.000Z\tMEDIA_REJECTED: image too large',
      'failure\tres_3\tpost_2\t\t\t\tno error details',
      '',
    ]);
  });

  it('table: ✓/✗, @username, URL or CODE: message, relative times, dashes for missing values', async () => {
    const lines = (await render([success, failure, sparse], 'table')).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\s+ID\s+POST\s+PLATFORM\s+ACCOUNT\s+WHEN\s+URL \/ ERROR$/);
    expect(lines[1]).toMatch(/^✓\s+res_1\s+post_1\s+twitter-x\s+@acme\s+3 hours ago\s+https:\/\/x\.com\/acme\/status\/1789$/);
    expect(lines[2]).toMatch(/^✗\s+res_2\s+post_1\s+instagram\s+@acme\.ig\s+2 minutes ago\s+MEDIA_REJECTED: image too large$/);
    expect(lines[3]).toMatch(/^✗\s+res_3\s+post_2\s+—\s+—\s+—\s+no error details$/);
  });

  it.each([60, 120])('table at %i columns: an id wider than the terminal is cut, and platform, time and outcome stay', async (width) => {
    for (const wide of ['res_' + 'x'.repeat(300), 'res_' + '😀'.repeat(150)]) {
      const lines = (await render([{ ...success, id: wide }, { ...failure, id: wide }], 'table', width)).trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^\s+ID\s+\S+\s+WHEN\s+URL \/ ERROR$/);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(lines[1]).toMatch(/^✓\s+res_\S+…\s+\S+\s+\S+/);
      expect(lines[1]).toContain('https://x.com/');
      expect(lines[2]).toMatch(/^✗\s+res_\S+…\s+\S+\s+\S+/);
      expect(lines[2]).toContain('MEDIA_REJECTED');
      if (width >= 120) {
        expect(lines[1]).toContain('twitter-x');
        expect(lines[1]).toContain('3 hours ago');
      }
    }
  });

  it('a --follow line cuts an id wider than real ids and a third of the line, so platform and outcome still show', () => {
    const normal = followLine(failure, plainColors, 100);
    expect(normal).toBe('✗ 2026-12-01 11:58:00Z  res_2  instagram  @acme.ig  MEDIA_REJECTED: image too large');
    const wide = followLine({ ...failure, id: 'res_' + 'x'.repeat(300) }, plainColors, 120);
    expect(displayWidth(wide)).toBeLessThanOrEqual(120);
    expect(wide).toMatch(/^✗ 2026-12-01 11:58:00Z {2}res_x+… {2}instagram {2}MEDIA_REJECTED: image too large$/);
  });

  it('a --follow line at 60 columns still shows the error code whole: the account, then the date, then the time give way, alike on every line', () => {
    const live: PostResult = {
      ...failure,
      id: 'res_1KxS3G1SvGCT',
      platform: 'facebook-page',
      platform_data: { username: 'socialpub-demo.bsky.social' },
      error: { code: 'PLATFORM_UNAVAILABLE', message: 'The platform could not take the post right now.' },
    };
    const at = (width: number) => followLine(live, plainColors, width);
    expect(at(60)).toBe('✗ res_1KxS3G1SvGCT  facebook-page  PLATFORM_UNAVAILABLE: Th…');
    expect(at(70)).toBe('✗ 11:58:00Z  res_1KxS3G1SvGCT  facebook-page  PLATFORM_UNAVAILABLE: T…');
    expect(at(90)).toBe('✗ 2026-12-01 11:58:00Z  res_1KxS3G1SvGCT  facebook-page  PLATFORM_UNAVAILABLE: The platfo…');
    expect(at(120)).toMatch(/^✗ 2026-12-01 11:58:00Z {2}res_1KxS3G1SvGCT {2}facebook-page {2}@socialpub-demo\.bsky\.so… {2}PLATFORM_UNAVAILABLE: The/);
    for (const w of [60, 70, 90, 120]) expect(displayWidth(at(w))).toBeLessThanOrEqual(w);
    // A success keeps room for the start of its URL, so that it reads as a link.
    expect(followLine({ ...success, id: 'res_2vYsGP236q4Q', platform: 'facebook-page' }, plainColors, 60)).toBe('✓ res_2vYsGP236q4Q  facebook-page  https://x.com/acme/statu…');
    expect(followLine({ ...success, platform_data: { url: null, username: 'acme' } }, plainColors, 120)).toBe('✓ 2026-12-01 09:00:00Z  res_1  twitter-x  @acme  no URL');
  });

  it('a narrow table writes the time short ("3h") rather than cut ("3 h…")', async () => {
    const lines = (await render([success, failure], 'table', 50)).trimEnd().split('\n');
    expect(lines[0]).toMatch(/\bWHEN\b/);
    expect(lines[1]).toMatch(/\s3h\s/);
    expect(lines[2]).toMatch(/\s2m\s/);
    expect(lines.join('\n')).not.toMatch(/\d …|\d h…|\d m…/);
  });

  it('at 60 columns the error code stays whole: the platform name is cut for it, the time stays', async () => {
    const row = (id: string, platform: string, code: string): PostResult => ({
      ...failure,
      id,
      platform,
      platform_data: { username: 'socialpub.demo' },
      error: { code, message: 'The platform could not take the post right now; it may work on a retry later today.' },
    });
    const rows = [
      row('res_1KxS3G1SvGCT', 'facebook-page', 'PLATFORM_UNAVAILABLE'),
      row('res_24y1Ow3NpBDH', 'instagram', 'MEDIA_REJECTED'),
      { ...success, id: 'res_2vYsGP236q4Q', platform: 'facebook-page', platform_data: { url: 'https://www.facebook.com/203738507528244/posts/1834071712469967' } },
    ];
    const lines = (await render(rows, 'table', 60)).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^\s+ID\s+PLATFORM\s+WHEN\s+URL \/ ERROR$/);
    expect(lines[1]).toMatch(/^✗\s+res_1KxS3G1SvGCT\s+facebook\S*\s+2m\s+PLATFORM_UNAVAILABLE:/);
    expect(lines[2]).toMatch(/^✗\s+res_24y1Ow3NpBDH\s+instagram\s+2m\s+MEDIA_REJECTED: The/);
    expect(lines[3]).toMatch(/^✓\s+res_2vYsGP236q4Q\s+facebook\S*\s+3h\s+https:\/\/www\.facebook\./);
  });

  it('a code wider than half the line does not take the whole table', async () => {
    const lines = (await render([{ ...failure, error: { code: 'X'.repeat(200), message: 'm' } }], 'table', 60)).trimEnd().split('\n');
    expect(lines[1]).toMatch(/^✗\s+res_2\s+instagram\s+(2m|2 minutes ago)\s+XXXX+…$/);
    expect(displayWidth(lines[1]!)).toBeLessThanOrEqual(60);
  });

  it('outcome text for odd failures', () => {
    expect(resultLinkOrError({ ...failure, error: { code: 'X', message: '' } })).toBe('X');
    expect(resultLinkOrError({ ...success, platform_data: null })).toBe('');
  });
});

describe('detail view', () => {
  it("shows when it happened in the user's zone under the UTC time; in UTC, UTC alone", () => {
    const text = renderResult(failure, plainColors, NOW, 'Asia/Tokyo');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => /^\s+created\s/.test(l));
    expect(lines[at]).toContain(failure.created_at);
    expect(lines[at + 1]).toMatch(/^ {20}2026-12-01 20:58 GMT\+9 \(Asia\/Tokyo\)$/);
    expect(renderResult(failure, plainColors, NOW, 'UTC')).not.toMatch(/\(UTC\)/);
  });

  it('shows every field, the error and the pretty-printed provider context, and extra fields', () => {
    const text = renderResult(failure, plainColors, NOW);
    expect(text).toContain('✗ failed  res_2');
    expect(text).toMatch(/post\s+post_1/);
    expect(text).toMatch(/platform\s+instagram/);
    expect(text).toMatch(/account\s+not tied to a connected account \(@acme\.ig\)/);
    expect(text).toMatch(/platform post id\s+ig_9/);
    expect(text).toMatch(/error code\s+MEDIA_REJECTED/);
    expect(text).toMatch(/error message\s+image too large/);
    expect(text).toMatch(/context\s+\{\n\s+"maxBytes": 8388608,\n\s+"got": 9000000\n\s+\}/);
    expect(text).toMatch(/attempt\s+2/);
    expect(text).toMatch(/created\s+2026-12-01T11:58:00.000Z \(2 minutes ago\)/);
  });

  it('a message of several lines continues under the value column; an empty one says so', () => {
    const text = renderResult({ ...failure, error: { code: 'PLATFORM_UNAVAILABLE', message: 'Upstream said:\r\n  502 Bad Gateway\nretry later' } }, plainColors, NOW);
    expect(text).toContain(['  error message     Upstream said:', '                      502 Bad Gateway', '                    retry later'].join('\n'));
    expect(renderResult({ ...failure, error: { code: 'TOKEN_EXPIRED', message: '' } }, plainColors, NOW)).toMatch(/error message\s+\(none\)\n/);
  });

  it('a success shows its URL; a sparse row still renders', () => {
    expect(renderResult(success, plainColors, NOW)).toMatch(/url\s+https:\/\/x\.com\/acme\/status\/1789/);
    expect(renderResult(success, plainColors, NOW)).toMatch(/account\s+acc_1 \(@acme\)/);
    const s = renderResult(sparse, plainColors, NOW);
    expect(s).toContain('✗ failed  res_3');
    expect(s).toMatch(/platform\s+\(not given\)/);
    expect(s).toMatch(/error\s+\(the service gave no details\)/);
  });
});

describe('detail view on a terminal', () => {
  // As the sandbox fails a TikTok target: the provider's answer nested in `context`, one line of
  // it (the message, with wide characters) longer than 60 columns.
  const context = {
    provider: 'tiktok',
    platform: 'tiktok',
    http_status: 401,
    error: { code: 'access_token_invalid', message: 'The access token is invalid or not found. 令牌已过期，请重新连接帐户。', log_id: '2e9LS813FNh' },
  };
  const row: PostResult = { ...failure, error: { code: 'TOKEN_EXPIRED', message: 'The access token has expired.', context } };
  const shown = async (columns: number) => {
    const out = captureStream(true, columns);
    await createOutput({ stdout: out, stderr: captureStream(), format: 'table', env: { NO_COLOR: '1' } }).object(row, (r) => renderResult(r, plainColors, NOW));
    const lines = out.text().trimEnd().split('\n');
    const start = lines.findIndex((l) => /^ {2}context {11}\{$/.test(l));
    const end = lines.indexOf(`${' '.repeat(20)}}`, start);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start + 5);
    return { lines, block: lines.slice(start + 1, end + 1) };
  };
  const squeezed = (text: string) => text.replace(/\s+/g, '');

  it('at 60 columns, context lines wrap under the label column, each continuing 2 columns in', async () => {
    const { lines, block } = await shown(60);
    expect(lines.filter((l) => displayWidth(l) > 60)).toEqual([]);
    expect(block.filter((l) => !l.startsWith(' '.repeat(20)))).toEqual([]);
    const message = block.findIndex((l) => l.startsWith(`${' '.repeat(24)}"message": "The access token`));
    expect(message).toBeGreaterThan(0);
    expect(block[message + 1]).toMatch(/^ {26}\S/);
    // Nothing lost or added but spaces (the block starts after the opening brace).
    expect(squeezed(`{${block.join('')}`)).toBe(squeezed(JSON.stringify(context)));
  });

  it('at 120 columns the context is the pretty JSON as it is, under the label column', async () => {
    const { block } = await shown(120);
    const pretty = JSON.stringify(context, null, 2).split('\n').slice(1);
    expect(block).toEqual(pretty.map((l) => ' '.repeat(20) + l));
    expect(Math.max(...block.map(displayWidth))).toBeGreaterThan(60);
  });
});

describe('batching sink', () => {
  it('joins row writes into few writes and flushes when the loop turns', async () => {
    const writes: string[] = [];
    const sink = new BatchingSink({ write: (s) => (writes.push(s), true) });
    const w = ndjsonWriter<{ n: number }>(sink);
    for (let n = 0; n < 500; n++) await w.write({ n });
    expect(writes.length).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(writes.length).toBe(1);
    expect(writes[0]!.split('\n')).toHaveLength(501);
    await sink.end();
    expect(writes.length).toBe(1);
  });

  it('writes once 64 KiB have gathered, keeping order', async () => {
    const writes: string[] = [];
    const sink = new BatchingSink({ write: (s) => (writes.push(s), true) }, 1000);
    for (let i = 0; i < 100; i++) sink.write(`${String(i).padStart(49, '0')}\n`);
    expect(writes.length).toBe(5);
    await sink.end();
    const lines = writes.join('').trimEnd().split('\n').map(Number);
    expect(lines).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('passes back-pressure through: the writer waits for drain', async () => {
    let release!: () => void;
    const received: string[] = [];
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk, _enc, cb) {
        received.push(String(chunk));
        release = cb;
      },
    });
    const sink = new BatchingSink(slow, 8);
    const w = ndjsonWriter<number>(sink);
    let finished = false;
    const p = (async () => {
      await w.write(1234567890);
      await w.write(2);
      finished = true;
    })();
    await new Promise((r) => setImmediate(r));
    expect(finished).toBe(false);
    expect(received).toEqual(['1234567890\n']);
    release();
    await p;
    await new Promise((r) => setImmediate(r));
    release();
    await sink.end();
    expect(finished).toBe(true);
    expect(received.join('')).toBe('1234567890\n2\n');
  });

  it('end() resolves once a full stream drains', async () => {
    const pt = new PassThrough({ highWaterMark: 4 });
    const sink = new BatchingSink(pt, 2);
    sink.write('abcdef');
    let ended = false;
    const e = sink.end().then(() => (ended = true));
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(false);
    pt.read();
    await e;
    expect(ended).toBe(true);
  });
});

describe('progress line', () => {
  it('redraws at most every 100 ms and erases itself', () => {
    let t = 0;
    const err = captureStream(true);
    // Rows go to a file or a pipe, progress to the terminal on stderr.
    const p = createOutput({ stdout: captureStream(false), stderr: err, format: 'ndjson', now: () => t }).rowProgress();
    p.update(100, 1000);
    p.update(200, 1000);
    t = 150;
    p.update(300, 1000);
    p.done();
    const text = err.text();
    expect(text).toContain('100 / 1,000 rows (10%)');
    expect(text).not.toContain('200 / 1,000');
    expect(text).toContain('300 / 1,000 rows (30%)');
    expect(text.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('is silent when stderr is not a terminal', () => {
    const err = captureStream(false);
    const p = createOutput({ stdout: captureStream(false), stderr: err, format: 'ndjson', now: () => 0 }).rowProgress();
    p.update(1, 2);
    p.done();
    expect(err.text()).toBe('');
  });
});
