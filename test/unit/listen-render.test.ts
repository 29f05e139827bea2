// How `listen` renders engine events, and its flag checks: pure functions, no sockets.
import { describe, expect, it } from 'vitest';
import { duplicateLine, eventRecord, eventView, forwardFailedLine, forwardedLine, ndjsonLine, rejectedLine, SHOWN_ID_MAX, summaryLine, terminalLine } from '../../src/cli/commands/listen/render.js';
import { planListen } from '../../src/cli/commands/listen/flags.js';
import type { ListenFlags } from '../../src/cli/commands/listen/index.js';
import { loadColors, plainColors } from '../../src/output/colors.js';
import { createOutput } from '../../src/output/output.js';
import { displayWidth } from '../../src/output/width.js';
import { captureStream } from '../helpers/run-cli.js';
import { webhookPayloadSchema } from '../../src/wire/schemas.js';
import { hostGuard } from '../../src/listen/request.js';
import { isLoopbackHost } from '../../src/wire/protocol.js';
import { isInsecureRemote, isLoopback } from '../../src/config/base-url.js';
import { SeenIds } from '../../src/listen/bookkeeping.js';
import type { DeliveryEvent, ListenerStats } from '../../src/listen/types.js';

/** An event as the listener emits it: the payload, and its typed reading when it has the delivery shape. */
function event(payload: Record<string, unknown>, extra: Partial<DeliveryEvent> = {}): DeliveryEvent {
  const read = webhookPayloadSchema.safeParse(payload);
  return { payload, delivery: read.success ? read.data : undefined, raw: Buffer.from(JSON.stringify(payload)), webhookId: 'msg_1', receivedAt: '2026-12-01T09:00:05.123Z', verified: true, seq: 1, ...extra };
}

const published = { type: 'post.result', postId: 'post_9', platform: 'linkedin', status: 'published', resultId: 'res_1' };
const failed = {
  type: 'post.result',
  postId: 'post_8',
  platform: 'instagram',
  status: 'failed',
  resultId: 'res_2',
  error: { code: 'MEDIA_REJECTED', message: 'Image too large', context: { maxBytes: 8 } },
};


/** One event as `listen -o tsv` prints it: through output and the command's own view. */
async function tsvLine(e: DeliveryEvent): Promise<string> {
  const out = captureStream();
  await createOutput({ stdout: out, stderr: captureStream(), format: 'tsv' }).list([e], eventView());
  return out.text();
}

describe('listen rendering', () => {
  it('NDJSON: the payload unchanged plus webhookId, receivedAt, verified', () => {
    const e = event({ ...failed, unknownField: [1, { a: null }] });
    const line = ndjsonLine(e);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(line)).toEqual({ ...failed, unknownField: [1, { a: null }], webhookId: 'msg_1', receivedAt: '2026-12-01T09:00:05.123Z', verified: true });
    expect(eventRecord(event(published, { webhookId: null, verified: false }))).toMatchObject({ webhookId: null, verified: false });
  });

  it('NDJSON keeps the payload byte for byte and stays one line whatever the body looks like', () => {
    const withRaw = (raw: string): DeliveryEvent => ({ ...event(JSON.parse(raw)), raw: Buffer.from(raw) });
    const pretty = '{\r\n  "postId": "post_1",\n  "big": 12345678901234567890,\n  "s": "a\\nb"\n}\n';
    const line = ndjsonLine(withRaw(pretty));
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\r\n]/);
    expect(line).toContain('"big": 12345678901234567890'); // not rounded through a double
    expect(JSON.parse(line)).toEqual({ postId: 'post_1', big: 12345678901234567168 /* the double nearest the raw digits */, s: 'a\nb', webhookId: 'msg_1', receivedAt: '2026-12-01T09:00:05.123Z', verified: true });
    expect(JSON.parse(ndjsonLine(withRaw('{}')))).toEqual({ webhookId: 'msg_1', receivedAt: '2026-12-01T09:00:05.123Z', verified: true });
    expect(JSON.parse(ndjsonLine(withRaw('  { }  ')))).toEqual({ webhookId: 'msg_1', receivedAt: '2026-12-01T09:00:05.123Z', verified: true });
    // Our fields win over same-named payload fields, as with a spread.
    expect(JSON.parse(ndjsonLine(withRaw('{"webhookId":"forged","verified":true}')))).toMatchObject({ webhookId: 'msg_1', verified: true });
    expect(JSON.parse(ndjsonLine({ ...withRaw('{"a":1}'), webhookId: null, verified: false }))).toEqual({ a: 1, webhookId: null, receivedAt: '2026-12-01T09:00:05.123Z', verified: false });
    expect(JSON.parse(ndjsonLine({ ...withRaw('{"a":1}'), webhookId: 'id "with" quotes' })).webhookId).toBe('id "with" quotes');
    for (const id of ['back\\slash', 'tab\there']) expect(JSON.parse(ndjsonLine({ ...withRaw('{"a":1}'), webhookId: id })).webhookId).toBe(id);
  });

  it('NDJSON: each event gets its own receivedAt and verified, one after another (the text after the id is kept per millisecond)', () => {
    const base = event(published);
    const at = ['2026-12-01T09:00:05.123Z', '2026-12-01T09:00:05.123Z', '2026-12-01T09:00:05.124Z', '2026-12-01T09:00:05.124Z', '2026-12-01T09:00:05.123Z'];
    const verified = [true, false, false, true, true];
    const lines = at.map((receivedAt, i) => ndjsonLine({ ...base, webhookId: `msg_${i}`, receivedAt, verified: verified[i]! }));
    expect(lines.map((l) => JSON.parse(l))).toEqual(at.map((receivedAt, i) => ({ ...published, webhookId: `msg_${i}`, receivedAt, verified: verified[i] })));
    // Printable ids are written as they are; anything JSON or a terminal would escape goes through JSON.stringify.
    expect(lines[0]).toContain(',"webhookId":"msg_0","receivedAt":"2026-12-01T09:00:05.123Z","verified":true}\n');
    expect(ndjsonLine({ ...base, webhookId: 'msg_\u00e9' })).toContain('"webhookId":"msg_\u00e9"');
  });

  it('NDJSON on stdout: DEL, C1 and bidi controls of the body and the webhook-id as \\u escapes (read back the same); the --log line exact', async () => {
    const hostile = { ...failed, error: { code: 'X', message: 'a\u0085b\u007fc\u202egnp.exe \u009b2J' } };
    const raw = JSON.stringify(hostile);
    const e: DeliveryEvent = { ...event(hostile), raw: Buffer.from(raw), text: raw, webhookId: 'msg_\u009b31m' };
    const out = captureStream();
    await createOutput({ stdout: out, stderr: captureStream(), format: 'ndjson' }).list([e], eventView());
    const shown = out.text();
    expect(shown).not.toMatch(/[\u007f-\u009f\u202e]/);
    expect(shown).toContain('a\\u0085b\\u007fc\\u202egnp.exe \\u009b2J');
    expect(shown).toContain('"webhookId":"msg_\\u009b31m"');
    expect(JSON.parse(shown)).toEqual(JSON.parse(ndjsonLine(e)));
    // The log file keeps the bytes as they came.
    expect(ndjsonLine(e)).toContain('a\u0085b\u007fc\u202egnp.exe');
    // Plain ASCII passes as it came, and the text the engine decoded is the one used.
    const plain = event(published);
    const plainOut = captureStream();
    await createOutput({ stdout: plainOut, stderr: captureStream(), format: 'ndjson' }).list([{ ...plain, text: JSON.stringify({ decoded: 'once' }) }], eventView());
    expect(JSON.parse(plainOut.text())).toMatchObject({ decoded: 'once', webhookId: 'msg_1' });
  });

  it('terminal: time, platform, ✓ published / ✗ failed, post id, result id, error code and message', () => {
    const ok = terminalLine(event(published), plainColors, { timeZone: 'UTC' });
    expect(ok).toMatch(/^09:00:05 {2}linkedin +✓ published {2}post_9 {2}res_1\n$/);
    const bad = terminalLine(event(failed), plainColors, { timeZone: 'UTC' });
    expect(bad).toMatch(/^09:00:05 {2}instagram +✗ failed {5}post_8 {2}res_2 {2}MEDIA_REJECTED {2}Image too large\n$/);
    expect(terminalLine(event(published, { verified: false }), plainColors, { timeZone: 'UTC' })).toContain('(unverified)');
  });

  it('terminal: escape sequences and line breaks in a payload cannot reach the terminal', () => {
    const evil = { ...failed, postId: 'post\u001b[2J\u001b]0;pwned\u0007', error: { code: 'X\nY', message: 'line1\r\nline2' } };
    const line = terminalLine(event(evil), plainColors, { timeZone: 'UTC' });
    expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(line.split('\n')).toHaveLength(2);
  });

  it('tsv: stable columns, tabs and newlines escaped', async () => {
    const line = await tsvLine(event({ ...failed, error: { code: 'E', message: 'a\tb\nc' } }));
    expect(line.split('\t')).toEqual(['2026-12-01T09:00:05.123Z', 'instagram', 'failed', 'post_8', 'E', 'a\\tb\\nc', 'res_2', 'msg_1\n']);
  });

  it('a payload missing fields still renders', async () => {
    expect(terminalLine(event({}), plainColors, { timeZone: 'UTC' })).toContain('?');
    expect((await tsvLine(event({ error: 'plain string' }))).split('\t')[5]).toBe('plain string');
  });

  it('stderr notes: rejected, duplicate, forwarded, forward failed', () => {
    expect(rejectedLine({ reason: 'no-matching-signature', status: 401, detail: 'no v1 signature matches', webhookId: 'msg_x' }, plainColors)).toBe(
      'rejected 401 bad signature: no v1 signature matches [msg_x]\n',
    );
    expect(duplicateLine('msg_x', plainColors)).toMatch(/duplicate delivery msg_x/);
    expect(forwardedLine({ webhookId: 'msg_x', status: 200, attempts: 1, ms: 12 }, plainColors)).toBe('  → forwarded msg_x: app answered 200 (12 ms)\n');
    expect(forwardedLine({ webhookId: 'msg_x', status: 404, attempts: 1, ms: 3 }, plainColors)).toContain('✗');
    expect(forwardFailedLine({ webhookId: 'msg_x', error: 'connection refused', attempts: 3 }, plainColors)).toBe(
      '  ✗ forward of msg_x failed after 3 attempts: connection refused\n',
    );
  });

  it('terminal: the status column has one width, so post ids line up (with and without colour)', async () => {
    const pending = { ...published, status: 'pending', postId: 'post_7' };
    for (const colors of [plainColors, await loadColors(true)]) {
      const visible = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '');
      const lines = [published, failed, pending].map((p) => visible(terminalLine(event({ ...p, platform: 'bluesky' }), colors, { timeZone: 'UTC' })));
      const columns = lines.map((l) => l.indexOf('post_'));
      expect(columns[0]).toBeGreaterThan(0);
      expect(new Set(columns).size).toBe(1);
    }
  });

  it('forward notes name the post and platform, and still the webhook-id', () => {
    expect(forwardFailedLine({ webhookId: 'msg_x', postId: 'post_8', platform: 'instagram', error: 'connection refused', attempts: 3 }, plainColors)).toBe(
      '  ✗ forward of post_8 on instagram (msg_x) failed after 3 attempts: connection refused\n',
    );
    expect(forwardedLine({ webhookId: 'msg_x', postId: 'post_9', platform: 'linkedin', status: 200, attempts: 2, ms: 12 }, plainColors)).toBe(
      '  → forwarded post_9 on linkedin (msg_x): app answered 200 (12 ms, 2 attempts)\n',
    );
    expect(forwardFailedLine({ webhookId: null, postId: 'post_8', platform: 'instagram', error: 'x', attempts: 1 }, plainColors)).toContain('forward of post_8 on instagram failed');
  });

  it('a 10 KB webhook-id is cut with … on the terminal and kept whole in NDJSON and TSV', async () => {
    const huge = `msg_${'x'.repeat(10 * 1024)}`;
    const notes = [
      duplicateLine(huge, plainColors),
      rejectedLine({ reason: 'no-matching-signature', status: 401, detail: 'no v1 signature matches', webhookId: huge }, plainColors),
      forwardedLine({ webhookId: huge, status: 200, attempts: 1, ms: 1 }, plainColors),
      forwardFailedLine({ webhookId: huge, postId: 'post_1', platform: 'bluesky', error: 'refused', attempts: 1 }, plainColors),
    ];
    for (const note of notes) {
      expect(note).toContain(`msg_${'x'.repeat(SHOWN_ID_MAX - 5)}…`);
      expect(note).not.toContain('x'.repeat(SHOWN_ID_MAX));
      expect(note.length).toBeLessThan(200);
    }
    const e = event(published, { webhookId: huge });
    expect(JSON.parse(ndjsonLine(e)).webhookId).toBe(huge);
    expect((await tsvLine(e)).trimEnd().split('\t').pop()).toBe(huge);
  });

  it('summary: received, printed, duplicates, rejected by reason', () => {
    const stats: ListenerStats = {
      requests: 9,
      received: 6,
      events: 5,
      duplicates: 1,
      filtered: 0,
      rejected: { 'no-matching-signature': 2, 'method-not-allowed': 1 },
      rejectedTotal: 3,
      forwarded: 0,
      forwardFailed: 0,
      forwardPending: 0,
    };
    expect(summaryLine(stats, 4, false)).toBe(
      'summary: received 6 · printed 4 · duplicates 1 · arrived after --max-events 1 · rejected 3 (bad signature 2, not POST 1)\n',
    );
    expect(summaryLine({ ...stats, rejected: {}, rejectedTotal: 0, forwarded: 4, forwardFailed: 1 }, 5, true)).toBe(
      'summary: received 6 · printed 5 · duplicates 1 · rejected 0 · forwarded 4 · forward failures 1\n',
    );
  });
});

describe('listen lines on a terminal fit its width', () => {
  const visible = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '');
  const graphemeEnds = (text: string) => new Set([...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((s) => s.index + s.segment.length));
  const ids = { postId: 'post_8Hq2LmN5pR1', resultId: 'res_4fT9kQ2mZx7' };
  const messages = {
    ascii: 'The platform rejected the image because it is larger than the limit of 8 MB for this account',
    cjk: '画像が大きすぎます。このアカウントの上限は8MBです。画像を縮小してからもう一度お試しください。',
    emoji: 'Rejected 🚀🚀 family 👩‍👩‍👧‍👦 thumbs 👍🏽👍🏽 flags 🇯🇵🇫🇷 and then 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉',
    short: 'Image too large',
  };
  const failedWith = (message: string, extra: Partial<DeliveryEvent> = {}) => event({ ...failed, ...ids, error: { code: 'MEDIA_REJECTED', message } }, extra);

  it.each([60, 80, 120])('at %i columns: one line, the result id and code whole, the message whole or cut with … between graphemes', async (width) => {
    const cases = Object.entries(messages).flatMap(([name, message]) => [plainColors, null].map((colors) => ({ name, message, colors })));
    expect(cases).toHaveLength(8);
    const colored = await loadColors(true);
    let cut = 0;
    for (const c of cases) {
      const line = terminalLine(failedWith(c.message), c.colors ?? colored, { width, timeZone: 'UTC' });
      expect(line.indexOf('\n')).toBe(line.length - 1);
      const body = line.slice(0, -1);
      expect(displayWidth(body), `${c.name} at ${width}`).toBeLessThanOrEqual(width);
      const text = visible(body);
      // Narrow, the post names the delivery; wide, the result id follows it.
      expect(text).toContain(`${width >= 100 ? `${ids.postId}  ${ids.resultId}` : ids.postId}  MEDIA_REJECTED  `);
      const shownMessage = text.slice(text.indexOf('MEDIA_REJECTED  ') + 'MEDIA_REJECTED  '.length);
      if (shownMessage === c.message) continue;
      cut++;
      expect(shownMessage.endsWith('…'), `${c.name} at ${width}: ${shownMessage}`).toBe(true);
      const kept = shownMessage.slice(0, -1);
      expect(c.message.startsWith(kept)).toBe(true);
      expect(graphemeEnds(c.message).has(kept.length) || kept.length === 0).toBe(true);
      // As much as fits: only a wide character that would not fit may leave a column free.
      expect(displayWidth(body)).toBeGreaterThanOrEqual(width - 1);
    }
    // The long texts never fit beside the ids; the short one does from 80 columns.
    expect(cut).toBe(width === 60 ? 8 : 6);
  });

  it('wide terminals show the time and the result id beside the post id, from 72 columns platform and status line up, narrower the message gets their room', () => {
    const at = (width: number, p: Record<string, unknown>) => visible(terminalLine(event({ ...p, ...ids }), plainColors, { width, timeZone: 'UTC' }));
    expect(at(120, published)).toBe(`09:00:05  linkedin       ✓ published  ${ids.postId}  ${ids.resultId}\n`);
    expect(at(80, published)).toBe(`linkedin       ✓ published  ${ids.postId}\n`);
    expect(at(60, published)).toBe(`linkedin  ✓  ${ids.postId}\n`);
    expect(at(60, { ...published, status: 'pending' })).toBe(`linkedin  • pending  ${ids.postId}\n`);
    for (const width of [80, 120]) {
      const lines = [published, failed, { ...published, status: 'pending' }].map((p) => at(width, p));
      expect(new Set(lines.map((l) => l.indexOf(ids.postId))).size).toBe(1);
    }
  });

  it('at 60 columns the longest platform, a sandbox-sized post id and the longest code: the code whole, a space after it', () => {
    const e = event({ ...failed, platform: 'facebook-page', postId: 'post_2SycUI1djajx', resultId: 'res_2SycUI1djajx', error: { code: 'PLATFORM_UNAVAILABLE', message: 'The platform could not take the post' } });
    const line = visible(terminalLine(e, plainColors, { width: 60, timeZone: 'UTC' })).trimEnd();
    // One column short of a letter of the message: the code stays whole.
    expect(line).toMatch(/^facebook-page {2}✗ {2}post_2SycUI1djajx {2}PLATFORM_UNAVAILABLE(?: {2}\S+)?…$/);
    expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('an unverified delivery keeps its mark; ids too long for the width cut the line itself', () => {
    for (const width of [60, 80, 120]) {
      const line = terminalLine(failedWith(messages.cjk, { verified: false }), plainColors, { width, timeZone: 'UTC' });
      expect(line.trimEnd().endsWith('(unverified)')).toBe(true);
      expect(displayWidth(line.trimEnd())).toBeLessThanOrEqual(width);
    }
    const huge = event({ ...failed, postId: `post_${'寿'.repeat(100)}`, error: { code: 'X', message: 'm' } });
    const line = terminalLine(huge, plainColors, { width: 60, timeZone: 'UTC' }).trimEnd();
    expect(displayWidth(line)).toBeGreaterThanOrEqual(59);
    expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(line.endsWith('…')).toBe(true);
  });

  it('through output: a terminal resized between two events shapes each line to its width then', async () => {
    const tty = captureStream(true, 120);
    const out = createOutput({ stdout: tty, stderr: captureStream(), format: 'table' });
    const writer = out.listWriter(eventView());
    await writer.write(failedWith(messages.ascii));
    tty.columns = 60;
    await writer.write(failedWith(messages.ascii));
    await writer.end();
    const [wide, narrow] = tty.text().trimEnd().split('\n').map(visible);
    expect(wide).toContain(`${ids.postId}  ${ids.resultId}`);
    expect(displayWidth(wide!)).toBeGreaterThan(100);
    expect(displayWidth(narrow!)).toBeLessThanOrEqual(60);
    expect(narrow).toMatch(new RegExp(`^instagram  ✗  ${ids.postId}  MEDIA_REJECTED`));
  });

  it('through output: the terminal width reaches the line; TSV and CSV carry the result id, NDJSON the body', async () => {
    const e = failedWith(messages.emoji);
    const tty = captureStream(true, 60);
    await createOutput({ stdout: tty, stderr: captureStream(), format: 'table' }).list([e], eventView());
    expect(displayWidth(tty.text().trimEnd())).toBeLessThanOrEqual(60);
    expect(tty.text()).toContain(ids.postId);
    const tsv = captureStream();
    await createOutput({ stdout: tsv, stderr: captureStream(), format: 'tsv' }).list([e], eventView());
    expect(tsv.text().split('\t')).toEqual(['2026-12-01T09:00:05.123Z', 'instagram', 'failed', ids.postId, 'MEDIA_REJECTED', messages.emoji, ids.resultId, 'msg_1\n']);
    const csv = captureStream();
    await createOutput({ stdout: csv, stderr: captureStream(), format: 'csv' }).list([e], eventView());
    expect(csv.text().split('\r\n')[0]).toBe('received_at,platform,status,post,code,message,result,webhook_id');
    expect(csv.text().split('\r\n')[1]).toContain(`,${ids.resultId},msg_1`);
    const ndjson = captureStream();
    await createOutput({ stdout: ndjson, stderr: captureStream(), format: 'ndjson' }).list([e], eventView());
    expect(ndjson.text()).toBe(ndjsonLine(e));
  });
});

describe('listen flags', () => {
  const base: ListenFlags = { port: '4567', host: '127.0.0.1', path: '/webhooks', forwardTimeout: '10s', forwardRetries: '2', platform: [], status: [] };

  it('defaults, and the secret from the environment when no flag is given', () => {
    const plan = planListen(base, { SOCIALPUB_WEBHOOK_SECRET: 'whsec_abc=' });
    expect(plan.listener).toMatchObject({ port: 4567, host: '127.0.0.1', path: '/webhooks', secret: 'whsec_abc=', forwardTimeoutMs: 10_000, forwardRetries: 2 });
    expect(plan.secret).toMatchObject({ source: 'env', from: 'SOCIALPUB_WEBHOOK_SECRET', warning: undefined });
    expect(planListen({ ...base, secret: 'whsec_flag=' }, { SOCIALPUB_WEBHOOK_SECRET: 'whsec_abc=' }).listener.secret).toBe('whsec_flag=');
    expect(planListen(base, {}).listener.secret).toBeUndefined();
  });

  it('stop conditions', () => {
    const plan = planListen({ ...base, maxEvents: '3', timeout: '2m', log: 'x.ndjson' }, {});
    expect(plan).toMatchObject({ maxEvents: 3, timeoutMs: 120_000, logFile: 'x.ndjson' });
  });

  it.each([
    [{ port: '70000' }, /--port/],
    [{ port: 'abc' }, /--port/],
    [{ path: 'webhooks' }, /--path/],
    [{ platform: ['myspace'] }, /--platform: "myspace"/],
    [{ status: ['posted'] }, /--status/],
    [{ maxEvents: '0' }, /--max-events/],
    [{ timeout: 'soon' }, /--timeout/],
    [{ forwardTo: 'localhost:3000' }, /--forward-to/],
    [{ forwardTimeout: '0s' }, /--forward-timeout/],
    [{ secret: '' }, /--secret/],
  ] as Array<[Partial<ListenFlags>, RegExp]>)('refuses %o (exit 2)', (flags, message) => {
    expect(() => planListen({ ...base, ...flags }, {})).toThrow(message);
    expect(() => planListen({ ...base, ...flags }, {})).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('host guard and duplicate memory', () => {
  it('loopback binds accept only loopback names with the bound port', () => {
    const ok = hostGuard('127.0.0.1', 4567);
    expect(['127.0.0.1:4567', 'localhost:4567', '[::1]:4567', 'LocalHost:4567'].every(ok)).toBe(true);
    expect(['evil.example:4567', '127.0.0.1:80', 'localhost', '127.0.0.1', undefined, ''].some(ok)).toBe(false);
    expect(hostGuard('localhost', 80)('localhost')).toBe(true);
    expect(hostGuard('::1', 9)('[::1]:9')).toBe(true);
  });

  it('other binds accept any Host (the user chose to be reachable)', () => {
    expect(hostGuard('0.0.0.0', 4567)('my-laptop.lan:4567')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('127.0.0.2')).toBe(true);
  });

  it('judges a bind and a base URL by the one loopback rule', () => {
    const loopback = ['localhost', 'LocalHost', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1'];
    const remote = ['0.0.0.0', '10.0.0.1', 'localhost.example', 'evil.example', '128.0.0.1', '::', '127.0.0.1.nip.io'];
    expect(loopback.filter((h) => !isLoopbackHost(h))).toEqual([]);
    expect(remote.filter(isLoopbackHost)).toEqual([]);
    for (const h of [...loopback, ...remote].filter((x) => !x.includes(':') || x.startsWith('['))) {
      expect({ h, url: isLoopback(`http://${h}:8787`) }).toEqual({ h, url: isLoopbackHost(h) });
      expect({ h, insecure: isInsecureRemote(`http://${h}:8787`) }).toEqual({ h, insecure: !isLoopbackHost(h) });
    }
    // A listener bound to a name of its own accepts that name in Host.
    expect(hostGuard('app.localhost', 9)('app.localhost:9')).toBe(true);
    expect(hostGuard('app.localhost', 9)('evil.example:9')).toBe(false);
  });

  it('remembers ids up to its capacity, forgetting the oldest first', () => {
    const seen = new SeenIds(3);
    expect(['a', 'b', 'c'].map((id) => seen.checkAndAdd(id))).toEqual([false, false, false]);
    expect(seen.checkAndAdd('a')).toBe(true);
    expect(seen.checkAndAdd('d')).toBe(false); // evicts a
    expect(seen.size).toBe(3);
    expect(seen.checkAndAdd('a')).toBe(false);
    expect(seen.checkAndAdd('c')).toBe(true);
  });

  it('keeps exactly the newest ids through many turns of its window', () => {
    const seen = new SeenIds(1000);
    for (let i = 0; i < 5500; i++) expect(seen.checkAndAdd(`msg_${i}`)).toBe(false);
    expect(seen.size).toBe(1000);
    // The last 1000 (4500..5499) are remembered; 4499 and older were forgotten, oldest first.
    expect(seen.checkAndAdd('msg_4500')).toBe(true);
    expect(seen.checkAndAdd('msg_5499')).toBe(true);
    expect(seen.checkAndAdd('msg_4499')).toBe(false); // forgotten, so new again: evicts msg_4500
    expect(seen.checkAndAdd('msg_4500')).toBe(false); // evicts msg_4501
    expect(seen.checkAndAdd('msg_4502')).toBe(true);
    expect(seen.checkAndAdd('msg_4501')).toBe(false);
    expect(seen.size).toBe(1000);
  });

  it('remembers nothing with a window of 0, and whole ids only with a fractional one', () => {
    const none = new SeenIds(0);
    expect([none.checkAndAdd('a'), none.checkAndAdd('a')]).toEqual([false, false]);
    expect(none.size).toBe(0);
    const two = new SeenIds(2.5);
    expect(['a', 'b', 'c'].map((id) => two.checkAndAdd(id))).toEqual([false, false, false]);
    expect([two.size, two.checkAndAdd('a'), two.checkAndAdd('c')]).toEqual([2, false, true]);
  });
});
