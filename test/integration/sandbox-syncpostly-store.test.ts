// What the SyncPostly dialect keeps in the sandbox's database (--data): account_configurations and
// processing_enabled after a restart, a deleted upload staying deleted with its id never handed
// out again, and a schema 3 database (before the dialect) brought up to date on open.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
import { SCHEMA_VERSION } from '../../src/sandbox/db/schema.js';
import { createManualClock, startSandbox } from '../../src/sandbox/index.js';
import { START } from './sandbox-support.js';
import { accountsOf, spClient } from './sandbox-syncpostly-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-syncpostly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (file: string) => startSandbox({ port: 0, clock: createManualClock(START), dataFile: file, seed: 4, webhookRetryDelaysMs: [] });

describe('the SyncPostly dialect across restarts', () => {
  it('keeps what a post carries beyond our payloads, and a deleted upload deleted', async () => {
    const file = join(dir, 'keeps.db');
    const first = await start(file);
    const sp = spClient(first, 'demo');
    const bluesky = (await accountsOf(first, 'demo')).usable('bluesky');
    const post = await sp.create({ caption: 'Kept', social_accounts: [bluesky], is_draft: true, account_configurations: { [bluesky]: { note: 'verbatim' } }, processing_enabled: false });
    const media = (await sp.post('/api/v1/media/create-upload-url', { mime_type: 'video/mp4', size_bytes: 100, name: 'clip.mp4' })).body.media_id as string;
    expect((await sp.del(`/api/v1/media/${media}`)).status).toBe(200);
    await first.close();

    const second = await start(file);
    try {
      const again = spClient(second, 'demo');
      expect((await again.get(`/api/v1/posts/${post.id}`)).body).toEqual(post);
      expect((await again.get(`/api/v1/media/${media}`)).status).toBe(404);
      const next = (await again.post('/api/v1/media/create-upload-url', { mime_type: 'video/mp4', size_bytes: 100, name: 'next.mp4' })).body.media_id;
      expect(next).not.toBe(media);
    } finally {
      await second.close();
    }
  });

  it('brings a schema 3 database up to date: its posts read in both dialects, new ones keep their extras', async () => {
    const file = join(dir, 'schema3.db');
    const first = await start(file);
    const key = first.key('demo');
    const made = await fetch(`${first.url}/v1/posts`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ payloads: { bluesky: { text: 'Before the dialect' } } }) });
    const id = ((await made.json()) as { id: string }).id;
    await first.close();
    const db = new (sqlite().DatabaseSync)(file);
    db.exec('DROP INDEX results_published_by_account; ALTER TABLE results DROP COLUMN duplicate_of; ALTER TABLE posts DROP COLUMN extras; ALTER TABLE media DROP COLUMN deleted; PRAGMA user_version = 3;');
    db.close();

    const second = await start(file);
    try {
      const sp = spClient(second, 'demo');
      expect((await sp.get(`/api/v1/posts/${id}`)).body).toMatchObject({ id, caption: 'Before the dialect', status: 'draft', account_configurations: null });
      const bluesky = (await accountsOf(second, 'demo')).usable('bluesky');
      expect((await sp.create({ caption: 'After', social_accounts: [bluesky], is_draft: true, processing_enabled: false })).processing_enabled).toBe(false);
    } finally {
      await second.close();
    }
    const check = new (sqlite().DatabaseSync)(file, { readOnly: true });
    try {
      expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
      // Schema 5's duplicate_of and its index came too.
      expect(check.prepare('PRAGMA table_info(results)').all().map((c) => c.name)).toContain('duplicate_of');
      expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'results_published_by_account'").all()).toHaveLength(1);
    } finally {
      check.close();
    }
  });
});
