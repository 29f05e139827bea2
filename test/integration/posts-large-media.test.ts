// Large media: a file of gigabytes streams from disk to the sandbox in constant memory (on both
// sides), and one over a platform's limit is refused before anything is sent. The files are
// sparse (an MP4 header, then a hole), so they cost no disk space.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/run-cli.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
// An ISO base media "ftyp" box (brand isom): what an MP4 starts with.
const MP4_HEAD = Buffer.from('000000186674797069736f6d0000020069736f6d6d703431', 'hex');

let sb: TestSandbox;
let tmp: string;
beforeAll(async () => {
  // A whole request may take longer than the default deadline on a busy machine.
  sb = await testSandbox({ ...ROOMY_LIMITS, requestTimeoutMs: 300_000 });
  tmp = mkdtempSync(join(tmpdir(), 'socialpub-large-media-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(tmp, { recursive: true, force: true });
});

function sparseMp4(name: string, size: number): string {
  const path = join(tmp, name);
  writeFileSync(path, MP4_HEAD);
  truncateSync(path, size);
  return path;
}

describe('large media', () => {
  // Past the 2 GiB a Buffer or one read can hold, which is what it takes to show streaming; more
  // only costs time (3 GB took 13 s of a loaded suite).
  const LONG = 2.25 * GiB;
  it('a 2.25 GiB video streams to the sandbox, in bounded memory', { timeout: 300_000 }, async () => {
    const video = sparseMp4('long.mp4', LONG);
    const from = sb.requests.length;
    let peak = 0;
    const start = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const r = await runCli(['posts', 'create', '--platform', 'youtube', '--text', 'the long cut', '--title', 'The long cut', '--media', video, '--json'], { env: cliEnv(sb, 'demo', { TZ: 'UTC' }) });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'draft', payloads: { youtube: { media: [expect.objectContaining({ url: expect.stringMatching(/^http/) })] } } });
    } finally {
      clearInterval(sampler);
    }
    expect(sb.requests.slice(from).map((q) => `${q.method} ${q.status}`)).toEqual(['POST 201', 'PUT 200', 'POST 201']);
    // Client and sandbox share this process: reading the file whole would add 2.25 GiB (or fail at 2 GiB).
    expect(peak - start).toBeLessThan(400 * MiB);
    // The sandbox counted every byte and says the media is ready.
    const media = sb.requests.slice(from).find((q) => q.method === 'PUT')!.path.split('/')[3]!;
    const res = await fetch(`${sb.url}/v1/media/${media}`, { headers: { authorization: `Bearer ${sb.key('demo')}` } });
    expect(await res.json()).toMatchObject({ sizeBytes: LONG, status: 'ready' });
  });

  it('a 2.5 GB video over a platform\'s limit is refused before anything is sent, saying by how much', async () => {
    const video = sparseMp4('too-big.mp4', 2.5 * GiB);
    const from = sb.requests.length;
    const r = await runCli(['posts', 'create', '--platform', 'instagram', '--text', 'reel', '--media', video], { env: cliEnv(sb, 'demo', { TZ: 'UTC' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--media .*too-big\.mp4.*is over instagram's video limit of 1 GB by 1\.5 GB/);
    expect(r.stderr).not.toMatch(/greater than 2 GiB|ERR_FS_FILE_TOO_LARGE/);
    expect(sb.requests.length).toBe(from);
  });
});
