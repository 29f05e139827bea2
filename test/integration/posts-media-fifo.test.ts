// A FIFO named like an image (`mkfifo photo.png`) given as media: reading its facts must answer
// "not a regular file" at once. A blocking open would wait for a writer forever, with the whole
// process stuck in one system call (deaf to SIGTERM), so the check runs in a process of its own
// that the test can kill: a hang fails the test instead of stalling the runner.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleChildScript } from '../helpers/child-script.js';

const dir = mkdtempSync(join(tmpdir(), 'media-fifo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('media facts of a FIFO', () => {
  it('answer "not a regular file" without waiting for a writer', async () => {
    const fifo = join(dir, 'photo.png');
    execFileSync('mkfifo', [fifo]);
    const script = await bundleChildScript(
      `import { mediaInspector } from './src/posts/media-facts.ts';
        const path = process.argv[2];
        const facts = await mediaInspector()({ source: path, isUrl: false, path, label: path });
        console.log(JSON.stringify(facts));`,
      join(dir, 'inspect.mjs'),
    );
    // The timeout only ends a hang; nothing is asserted about how long the check takes.
    const run = spawnSync(process.execPath, [script, fifo], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ exists: true, isFile: false, sizeBytes: undefined, mimeType: undefined, extensionMime: undefined });
  }, 60_000);
});
