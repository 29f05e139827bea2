// Service text next to our labels, in a real headless Chromium (as dashboard.test.ts finds it): a
// handle holding U+202E (right-to-left override) or written in Arabic must not reorder the label,
// number or punctuation beside it. Positions are measured on the laid-out text: our label's
// letters run left to right and it stays on its side of the handle. The handles are put in the
// sandbox's data file between two starts, as a service would send any text it holds.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewPage } from '../../src/wire/preview/html.js';
import { previewPost } from '../../src/wire/preview/model.js';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CHROMIUM = process.env.SOCIALPUB_CHROMIUM ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && process.env.CI) throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package before npm test`);
const SHOTS = process.env.SOCIALPUB_SCREENSHOTS;

const OVERRIDE = '\u202Eevil';
const ARABIC = 'مرحبا';
const ARABIC_NAME = 'حساب تجريبي';

let browser: Browser;
let sb: TestSandbox;
let dir: string;
let overrideAccount: string;
let arabicAccount: string;

interface Place {
  left: number;
  right: number;
  top: number;
  /** Left edge of the needle's first and last character: first < last when it reads left to right. */
  first: number;
  last: number;
}

/** Where `needle` (within one text node under `root`) is laid out. */
function place(root: Locator, needle: string): Promise<Place> {
  return root.evaluate((el, needle) => {
    const doc = el.ownerDocument;
    const walk = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const at = (n.textContent ?? '').indexOf(needle);
      if (at < 0) continue;
      const range = doc.createRange();
      const rect = (a: number, b: number) => {
        range.setStart(n, a);
        range.setEnd(n, b);
        return range.getBoundingClientRect();
      };
      const whole = rect(at, at + needle.length);
      return { left: whole.left, right: whole.right, top: whole.top, first: rect(at, at + 1).left, last: rect(at + needle.length - 1, at + needle.length).left };
    }
    throw new Error(`no text ${JSON.stringify(needle)} in ${el.outerHTML.slice(0, 300)}`);
  }, needle);
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name), fullPage: true });
}

beforeAll(async () => {
  if (!present) return;
  dir = mkdtempSync(join(tmpdir(), 'socialpub-bidi-'));
  const dataFile = join(dir, 'sandbox.db');
  const first = await testSandbox({ dataFile });
  await first.close();
  const db = new (sqlite().DatabaseSync)(dataFile);
  const demo = db.prepare("SELECT tag FROM workspaces WHERE name = 'demo'").get() as { tag: number };
  const rename = db.prepare("UPDATE accounts SET username = ?, display_name = ? WHERE workspace = ? AND platform = ? AND is_default = 1 RETURNING idx");
  rename.run(OVERRIDE, null, demo.tag, 'bluesky');
  rename.run(ARABIC, ARABIC_NAME, demo.tag, 'instagram');
  db.close();
  sb = await testSandbox({ dataFile });
  const accounts = (await (await fetch(`${sb.url}/v1/social-accounts?limit=100`, { headers: { authorization: `Bearer ${sb.key('demo')}` } })).json()) as { data: { id: string; username: string }[] };
  overrideAccount = accounts.data.find((a) => a.username === OVERRIDE)!.id;
  arabicAccount = accounts.data.find((a) => a.username === ARABIC)!.id;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!present)('service text beside our labels (bidi) in Chromium', () => {
  it('the accounts page: "@", the display name and "· default" keep their places around the handle', async () => {
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${sb.url}/dashboard/accounts?ws=demo`);
      const cell = (id: string) => page.locator('#main td').filter({ hasText: id }).first();
      // The override: our label reads "default", left to right, to the right of the handle.
      const o = cell(overrideAccount);
      const [at, evil, label] = [await place(o, '@'), await place(o, 'evil'), await place(o, 'default')];
      expect(label.first, `width ${width}: "default" reversed`).toBeLessThan(label.last);
      expect(at.right, `width ${width}`).toBeLessThanOrEqual(evil.left + 0.5);
      if (label.top === evil.top) expect(label.left, `width ${width}`).toBeGreaterThanOrEqual(evil.right - 0.5);
      // Arabic handle and display name: the handle first (left), then its name, then our label.
      const a = cell(arabicAccount);
      const [handle, name, def] = [await place(a, ARABIC), await place(a, 'حساب'), await place(a, 'default')];
      expect(def.first).toBeLessThan(def.last);
      if (handle.top === name.top) expect(handle.right, `width ${width}: the name before the handle`).toBeLessThanOrEqual(name.left + 0.5);
      if (name.top === def.top) expect(name.right, `width ${width}`).toBeLessThanOrEqual(def.left + 0.5);
      await shoot(page, `bidi-accounts-${width}.png`);
      await page.close();
    }
  });

  it("a preview page: a platform key in Arabic or with an override keeps the count and our words after it", async () => {
    const file = join(dir, 'preview.html');
    writeFileSync(
      file,
      previewPage(
        previewPost({
          id: 'post_bidi',
          title: `${ARABIC} 2026`,
          payloads: {
            [ARABIC]: { text: 'hi', firstComment: OVERRIDE },
            [OVERRIDE]: { text: 'hi', media: [{ url: 'https://example.com/a.jpg', alt: ARABIC }] },
            'twitter-x': { text: `${ARABIC} `.repeat(60), firstComment: `${ARABIC} 3` },
          },
        }),
      ),
    );
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(pathToFileURL(file).href);
      // "مرحبا 2 characters": without isolation the 2 would join the Arabic run and show left of it.
      const arabicHead = page.locator('section.preview h3').nth(0);
      const [key, count, word] = [await place(arabicHead, ARABIC), await place(arabicHead, '2'), await place(arabicHead, 'characters')];
      expect(count.left, `width ${width}: the count moved before the key`).toBeGreaterThanOrEqual(key.right - 0.5);
      expect(word.first).toBeLessThan(word.last);
      // The override stops at the key: "characters" reads left to right, after it.
      const evilHead = page.locator('section.preview h3').nth(1);
      const [evil, chars] = [await place(evilHead, 'evil'), await place(evilHead, 'characters')];
      expect(chars.first, `width ${width}: "characters" reversed`).toBeLessThan(chars.last);
      if (chars.top === evil.top) expect(chars.left).toBeGreaterThanOrEqual(evil.right - 0.5);
      // X, over its limit: the warning's own words read left to right.
      const x = page.locator('section.preview').nth(2);
      const over = await place(x.locator('h3'), 'limit');
      expect(over.first).toBeLessThan(over.last);
      // The label before a first comment stays first.
      const comment = page.locator('section.preview').nth(0).locator('.comment');
      const [lab, text] = [await place(comment, 'comment'), await place(comment, 'evil')];
      expect(lab.first).toBeLessThan(lab.last);
      if (lab.top === text.top) expect(lab.right).toBeLessThanOrEqual(text.left + 0.5);
      await shoot(page, `bidi-preview-${width}.png`);
      await page.close();
    }
  });
});
