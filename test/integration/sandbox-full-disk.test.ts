// A full disk (a 300 kB tmpfs under the database): the write that cannot be committed is
// answered 507 with the contract's error body and does not happen; reads go on; every write
// answered 2xx before it is there after a restart (from a copy of the files, as they were).
// An upload whose bytes do not fit is refused the same way. Needs `mount -t tmpfs` (root);
// otherwise skipped, named.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { call, text } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-full-'));
const disk = join(dir, 'small-disk');
const mounted = (() => {
  spawnSync('mkdir', ['-p', disk]);
  if (process.platform !== 'linux') return `tmpfs mounts are Linux-only (${process.platform})`;
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=300k,mode=0700', 'tmpfs', disk]);
  return r.status === 0 ? undefined : `cannot mount a tmpfs here (${String(r.stderr).trim() || r.error?.message}): run as root to include this test`;
})();
afterAll(() => {
  if (mounted === undefined) spawnSync('umount', [disk]);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(mounted !== undefined)(`a full disk${mounted ? ` — skipped: ${mounted}` : ''}`, () => {
  it('fails the request that could not be committed with 507 and the error body, and loses nothing acknowledged', async () => {
    const file = join(disk, 'state.db');
    const sb = await startSandbox({ port: 0, dataFile: file, seed: 9, writeLimit: 100_000 });
    const key = sb.key('demo');
    const acknowledged = new Map<string, string>();
    let refused: { status: number; body: any; words: string } | undefined;
    try {
      for (let i = 0; i < 2_000 && !refused; i++) {
        const words = `post ${i} ${'x'.repeat(2_500)}`;
        const r = await call(sb, 'POST', '/v1/posts', { key, body: { payloads: text(['linkedin'], words) } });
        if (r.status === 201) acknowledged.set(r.body.id, r.body.payloads.linkedin.text);
        else refused = { status: r.status, body: r.body, words: `${words} (linkedin)` };
      }
      expect(acknowledged.size).toBeGreaterThan(3);
      expect(refused?.status).toBe(507);
      expect(refused?.body).toEqual({
        error: { code: 'INTERNAL_ERROR', message: expect.stringMatching(/^the sandbox could not save the change \(the disk is full\), so it did not happen: free space on the disk that holds .*state\.db, then retry$/) },
        requestId: expect.stringMatching(/^req_/),
      });
      // Reads still answer, and the refused write is not there.
      const listed = await call(sb, 'GET', '/v1/posts?limit=100', { key });
      expect(listed.status).toBe(200);
      expect(listed.body.meta.total).toBe(acknowledged.size);
      // Bytes that cannot be kept: the upload is refused the same way.
      const media = await call(sb, 'POST', '/v1/media', { key, body: { name: 'big.png', mimeType: 'image/png', sizeBytes: 400_000 } });
      if (media.status === 201) {
        const put = await call(sb, 'PUT', new URL(media.body.uploadUrl).pathname, { key, raw: new Uint8Array(400_000).fill(7) });
        expect(put.status).toBe(507);
        expect(put.body.error.code).toBe('INTERNAL_ERROR');
      } else expect(media.status).toBe(507);
    } finally {
      await sb.close();
    }

    // The files as the full disk left them, copied where there is room.
    const copy = join(dir, 'copy');
    cpSync(disk, copy, { recursive: true });
    const again = await startSandbox({ port: 0, dataFile: join(copy, 'state.db'), writeLimit: 100_000 });
    try {
      for (const [id, words] of acknowledged) {
        const r = await call(again, 'GET', `/v1/posts/${id}`, { key });
        expect(r.status).toBe(200);
        expect(r.body.payloads.linkedin.text).toBe(words);
      }
      const all = await call(again, 'GET', '/v1/posts?limit=100', { key });
      expect(all.body.meta.total).toBe(acknowledged.size);
      expect(all.body.data.map((p: any) => p.payloads.linkedin.text)).not.toContain(refused!.words);
    } finally {
      await again.close();
    }
  }, 60_000);
});
