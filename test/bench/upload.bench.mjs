// upload: `posts create --media` with a 1 GB video to a sandbox in its own process. Both sides
// stream, so the peak RSS of each stays flat whatever the file's size; the target is the client's
// peak ≤ 150 MiB. The file is sparse (an MP4 header, then a hole): the disk is not what is measured.
// Run: npm run build && node test/bench/upload.bench.mjs  (or `npm run bench upload`)
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, measure } from './lib.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

const MP4_HEAD = Buffer.from('000000186674797069736f6d0000020069736f6d6d703431', 'hex');
const TARGET_MIB = 150;

/** Peak RSS of a running process in MiB (Linux), or undefined. */
function peakMiB(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export async function run({ sizeGiB = 1 } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-bench-upload-'));
  // The sandbox wants a whole request within 28 s: 1 GiB needs ≥ 37 MiB/s.
  const sb = await startSandboxChild();
  try {
    const file = join(tmp, 'video.mp4');
    writeFileSync(file, MP4_HEAD);
    truncateSync(file, sizeGiB * 1024 ** 3);
    const before = peakMiB(sb.pid);
    const res = await measure(process.execPath, [BIN, 'posts', 'create', '--platform', 'youtube', '--title', 'Bench', '--text', 'bench', '--media', file, '-q'], { env: sb.env({ NO_COLOR: '1' }) });
    if (res.code !== 0) throw new Error(`upload exited ${res.code}: ${res.stderr.slice(0, 500)}`);
    const client = res.maxRssKb === undefined ? undefined : res.maxRssKb / 1024;
    const server = peakMiB(sb.pid);
    const rate = (sizeGiB * 1024) / (res.ms / 1000);
    const verdict = client === undefined ? '' : client <= TARGET_MIB ? `  ✓ ≤ ${TARGET_MIB} MiB` : `  ✗ target ≤ ${TARGET_MIB} MiB`;
    console.log(
      `upload of a ${sizeGiB} GiB video: ${(res.ms / 1000).toFixed(1)} s (${rate.toFixed(0)} MiB/s) · client peak ${client?.toFixed(1) ?? '?'} MiB${verdict} · sandbox peak ${server?.toFixed(1) ?? '?'} MiB (${before?.toFixed(1) ?? '?'} MiB before)`,
    );
  } finally {
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
