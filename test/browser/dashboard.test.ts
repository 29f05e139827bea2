// The dashboard and the preview page in a real headless Chromium (Debian's package, driven by
// playwright-core; no browser is downloaded). Every request the page makes is intercepted: one
// that leaves the sandbox's own origin is refused and fails the test. `.ci/run` installs the
// browser; without one this file is skipped, except under CI, where that is a failure.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewPage } from '../../src/wire/preview/html.js';
import { previewPost } from '../../src/wire/preview/model.js';
import { cliEnv, CREATE_PATH, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/run-cli.js';

const CHROMIUM = process.env.SOCIALPUB_CHROMIUM ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && process.env.CI) throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package before npm test`);
/** Where screenshots go when asked for (SOCIALPUB_SCREENSHOTS=DIR): to be looked at, not compared. */
const SHOTS = process.env.SOCIALPUB_SCREENSHOTS;

// With control characters (BEL, ESC), which a browser would draw as empty boxes.
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> \u0007\u001b[31m';
// One word longer than a phone is wide, and a URL as long: they wrap, never widen a table or a preview.
const LONG_WORD = 'Supercalifragilistic'.repeat(12);
const LONG_URL = `https://example.com/${'very-long-path-segment-'.repeat(6)}?q=${'x'.repeat(40)}`;
const PAGES = ['/', '/dashboard/posts?ws=demo', '/dashboard/results?ws=demo&failed=1', '/dashboard/deliveries', '/dashboard/requests', '/dashboard/accounts', '/dashboard/faults'];

let browser: Browser;
let sb: TestSandbox;
let receiver: Server;
const received: string[] = [];
let hostilePost: string;
let longPost: string;
/** Made through SyncPostly's API to publish now, and left due: the clock does not move after it. */
let processingPost: string;
let processingAccount: string;

interface Watched {
  page: Page;
  errors: string[];
  outside: string[];
}

/** A page whose console errors, script errors and requests beyond `origin` are recorded (and the latter refused). */
async function watchedPage(origin: string, size = { width: 1280, height: 900 }): Promise<Watched> {
  const page = await browser.newPage({ viewport: size });
  const w: Watched = { page, errors: [], outside: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') w.errors.push(m.text());
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin)) return route.continue();
    w.outside.push(url);
    return route.abort();
  });
  return w;
}

beforeAll(async () => {
  if (!present) return;
  receiver = createServer((req, res) => {
    received.push(req.headers['webhook-id'] as string);
    req.resume();
    // The first attempt of every delivery fails, so there are retries to show.
    res.statusCode = received.filter((id) => id === req.headers['webhook-id']).length === 1 ? 500 : 204;
    res.end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as { port: number }).port;
  sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 200, failureRate: 0.5, webhookUrl: `http://127.0.0.1:${port}/hooks` });
  const created = await runCli(['posts', 'schedule', '--platform', 'bluesky,instagram', '--text', HOSTILE, '--media', 'https://example.com/a.jpg', '--at', '2026-12-01T10:00:00Z', '-q'], { env: cliEnv(sb), clock: sb.clock });
  hostilePost = created.stdout.trim();
  const long = await runCli(['posts', 'schedule', '--platform', 'linkedin,threads,facebook-page', '--text', `${LONG_WORD} ${LONG_URL}`, '--first-comment', LONG_WORD, '--title', LONG_WORD, '--at', '2026-12-01T10:00:00Z', '-q'], { env: cliEnv(sb), clock: sb.clock });
  longPost = long.stdout.trim();
  if (!/^post_/.test(longPost)) throw new Error(`the long post was not made: ${long.stderr}`);
  await sb.clock.advance(61 * 60_000);
  await sb.settle();
  const accounts = (await (await fetch(`${sb.url}/api/v1/social-accounts`, { headers: { authorization: `Bearer ${sb.key('demo')}` } })).json()) as { data: { id: string }[] };
  const made = await fetch(`${sb.url}${CREATE_PATH.syncpostly}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.key('demo')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ caption: 'SyncPostly, publishing now', social_accounts: [accounts.data[0]!.id], is_draft: false, scheduled_at: null, account_configurations: { [accounts.data[0]!.id]: { collaborators: ['ada'] } } }),
  });
  processingPost = ((await made.json()) as { id: string; status: string }).id;
  processingAccount = accounts.data[0]!.id;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
});

describe.skipIf(!present)('the dashboard in Chromium', () => {
  it('every page loads with no console error and no request leaving the sandbox', async () => {
    expect(hostilePost).toMatch(/^post_/);
    const w = await watchedPage(sb.url);
    for (const path of [...PAGES, `/dashboard/posts/${hostilePost}`, `/preview/${hostilePost}`]) {
      const res = await w.page.goto(`${sb.url}${path}`);
      expect(res?.status(), path).toBe(200);
      await w.page.waitForLoadState('networkidle');
      // The post's markup stayed text: no alert ran, no image was asked for.
      expect(await w.page.locator('#main script, #main img').count(), path).toBe(0);
    }
    expect(w.errors).toEqual([]);
    expect(w.outside).toEqual([]);
    await w.page.close();
  });

  it('shows what a person reads: control characters as \\u escapes, an error context as fields, a due post as processing with its account configurations', async () => {
    const w = await watchedPage(sb.url);
    await w.page.goto(`${sb.url}/dashboard/posts/${hostilePost}`);
    const post = await w.page.locator('#main .preview').first().innerText();
    expect(post).toContain('\\u0007\\u001b[31m');
    expect(post).not.toMatch(/[\u0007\u001b]/);
    for (const path of ['/', '/dashboard/results?ws=demo&failed=1']) {
      await w.page.goto(`${sb.url}${path}`);
      expect(await w.page.locator('#main .fields').count(), path).toBeGreaterThan(0);
      expect(await w.page.locator('#main').innerText(), path).not.toContain('{"');
    }
    await w.page.goto(`${sb.url}/dashboard/posts?ws=demo`);
    expect(await w.page.locator('tr', { has: w.page.locator(`a[href="/dashboard/posts/${processingPost}"]`) }).locator('td').nth(1).innerText()).toBe('processing');
    await w.page.goto(`${sb.url}/dashboard/posts/${processingPost}`);
    expect(await w.page.locator('#main > p').first().innerText()).toMatch(/^processing · /);
    // Before any result, the target's account is the one the post names.
    expect(await w.page.locator('#main table').first().locator('tbody td').nth(2).innerText()).toBe(processingAccount);
    // Its account_configurations, which no preview shows, as fields.
    expect(await w.page.locator('#main table', { hasText: 'collaborators' }).innerText()).toContain('ada');
    expect(w.errors).toEqual([]);
    await w.page.close();
  });

  it('a post created from the CLI appears without reloading', async () => {
    const w = await watchedPage(sb.url);
    await w.page.goto(`${sb.url}/dashboard/posts?ws=demo`);
    await expect.poll(() => w.page.locator('#live').textContent()).toBe('live');
    let navigations = 0;
    w.page.on('framenavigated', () => navigations++);
    const text = `Made on the command line ${Date.now()}`;
    const r = await runCli(['posts', 'create', '--platform', 'linkedin', '--text', text, '-q'], { env: cliEnv(sb) });
    expect(r.code).toBe(0);
    await w.page.getByText(text).waitFor({ timeout: 10_000 });
    expect(navigations).toBe(0);
    expect(w.errors).toEqual([]);
    await w.page.close();
  });

  it('resend produces a new delivery attempt, shown without reloading', async () => {
    const w = await watchedPage(sb.url);
    await w.page.goto(`${sb.url}/dashboard/deliveries`);
    await expect.poll(() => w.page.locator('#live').textContent()).toBe('live');
    const first = w.page.locator('section[aria-label^="delivery "]').first();
    const id = (await first.getAttribute('aria-label'))!.slice('delivery '.length);
    const section = w.page.locator(`section[aria-label="delivery ${id}"]`);
    const before = await section.locator('tbody tr').count();
    const sent = received.filter((x) => x === id).length;
    await section.getByRole('button', { name: `Resend ${id}` }).click();
    await expect.poll(() => section.locator('tbody tr').count(), { timeout: 10_000 }).toBe(before + 1);
    expect(await section.locator('tbody tr').last().textContent()).toContain('(resent)');
    expect(received.filter((x) => x === id).length).toBe(sent + 1);
    expect(w.errors).toEqual([]);
    await w.page.close();
  });

  it('Tab reaches every control of every page', async () => {
    const w = await watchedPage(sb.url);
    // No live refresh while tabbing: a change left by an earlier test (a delivery's retry landing late)
    // would replace the numbered controls mid-count.
    await w.page.route('**/dashboard/events', (route) => route.abort());
    for (const path of [...PAGES, `/dashboard/posts/${hostilePost}`]) {
      await w.page.goto(`${sb.url}${path}`);
      const controls = await w.page.locator('a[href], button:not([disabled]), input:not([type=hidden]), select').count();
      // Each control numbered, so that where the focus is can be told.
      await w.page.locator('a[href], button:not([disabled]), input:not([type=hidden]), select').evaluateAll((els) => els.forEach((el, n) => el.setAttribute('data-n', String(n))));
      const reached = new Set<string>();
      for (let i = 0; i < controls + 5; i++) {
        await w.page.keyboard.press('Tab');
        const n = await w.page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('data-n')");
        if (n !== null) reached.add(n);
      }
      expect(reached.size, path).toBe(controls);
    }
    await w.page.close();
  });

  it('fits a phone (390 px) and a laptop (1280 px), light and dark, with no sideways scroll', async () => {
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    for (const width of [1280, 390]) {
      for (const scheme of ['light', 'dark'] as const) {
        const w = await watchedPage(sb.url, { width, height: 900 });
        await w.page.emulateMedia({ colorScheme: scheme });
        for (const path of ['/', `/dashboard/posts/${hostilePost}`, `/dashboard/posts/${longPost}`, '/dashboard/results?ws=demo&failed=1', '/dashboard/deliveries', '/dashboard/accounts', '/dashboard/requests']) {
          await w.page.goto(`${sb.url}${path}`);
          const overflow = await w.page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
          expect(overflow, `${path} at ${width}`).toBeLessThanOrEqual(0);
          // No word of a table cut in two (ids, an error's fields and a word longer than a column could be may break anywhere), no button on two lines.
          const cut = await w.page.evaluate<string[]>(`[...document.querySelectorAll('#main td')].flatMap((td) => {
            const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
            const out = [];
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
              if (n.parentElement.closest('code, .fields') || !/^[^\\s-]+$/.test(n.textContent.trim()) || n.textContent.trim().length > 40) continue;
              const range = document.createRange();
              range.selectNodeContents(n);
              if (range.getClientRects().length > 1) out.push(n.textContent.trim());
            }
            return out;
          })`);
          expect(cut, `${path} at ${width}`).toEqual([]);
          const heights = await w.page.locator('#main button').evaluateAll((els) => [...new Set(els.map((el) => Math.round(el.getBoundingClientRect().height)))]);
          expect(heights.length, `${path} at ${width}: button heights ${heights.join(', ')}`).toBeLessThanOrEqual(1);
          // Nor a control hidden to the right of a table's scroll box.
          const clipped = await w.page.locator('#main .scroll a, #main .scroll button').evaluateAll((els) =>
            els.filter((el) => el.getBoundingClientRect().right > el.closest('.scroll')!.getBoundingClientRect().right + 1).map((el) => el.textContent),
          );
          expect(clipped, `${path} at ${width}`).toEqual([]);
          // Nor any text: no table is wider than its box (a long word, or a column too many for a phone, would cut every row).
          const scrolling = await w.page.locator('#main .scroll').evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent!.slice(0, 60)));
          expect(scrolling, `${path} at ${width}`).toEqual([]);
          // A post id in a table reads on one line.
          const brokenIds = await w.page.locator('#main a.id').evaluateAll((els) => els.filter((el) => el.getClientRects().length > 1).map((el) => el.textContent));
          expect(brokenIds, `${path} at ${width}`).toEqual([]);
          if (SHOTS) await w.page.screenshot({ path: join(SHOTS, `${path === '/' ? 'overview' : path.split('?')[0]!.split('/').slice(2).join('-')}-${width}-${scheme}.png`), fullPage: true });
        }
        await w.page.close();
      }
    }
  });

  it('the fault form changes only the fields given: one left empty keeps its value', async () => {
    const w = await watchedPage(sb.url);
    await w.page.goto(`${sb.url}/dashboard/faults`);
    await w.page.getByLabel(/failure rate/).fill('');
    await w.page.getByLabel(/chaos/).fill('0');
    await w.page.getByRole('button', { name: 'apply' }).click();
    await expect.poll(() => w.page.locator('#live').textContent(), { timeout: 10_000 }).toBe('chaos 0, failure rate 0.5');
    expect(w.errors).toEqual([]);
    await w.page.close();
  });

  it('an action on a sandbox that has stopped says so on the page, with no script error', async () => {
    const gone = await testSandbox({});
    const w = await watchedPage(gone.url);
    await w.page.goto(`${gone.url}/dashboard/accounts?ws=demo`);
    await expect.poll(() => w.page.locator('#live').textContent()).toBe('live');
    await gone.close();
    await w.page.getByRole('button', { name: 'expire' }).first().click();
    await expect.poll(() => w.page.locator('#live').textContent(), { timeout: 10_000 }).toMatch(/^failed: the sandbox did not answer/);
    // The browser's own line for the refused connection is expected; a script error is not.
    expect(w.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
    await w.page.close();
  });

  it("a preview written as a local file loads alone: no script, no request beyond itself", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-preview-test-'));
    const file = join(dir, 'preview.html');
    writeFileSync(file, previewPage(previewPost({ id: 'post_x', payloads: { instagram: { text: `${HOSTILE} ${'word '.repeat(40)}`, media: [{ url: 'https://example.com/a.jpg', alt: 'a cat' }] } } })));
    const url = pathToFileURL(file).href;
    const w = await watchedPage(url);
    await w.page.goto(url);
    expect(await w.page.locator('.hidden-part').count()).toBe(1);
    expect(w.outside).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.close();
  });
});
