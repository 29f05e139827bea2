// stdout and stderr written straight to their descriptor when they are pipes or files: every byte
// arrives in order, a terminal keeps Node's stream, a gone reader is reported once, and a pipe
// that answers EAGAIN (non-blocking, shared with a parent) hands the rest to the stream.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutStream } from '../../src/cli/context.js';
import { fdWriter } from '../../src/cli/fd-writer.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-fd-writer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const noFallback = (): OutStream => {
  throw new Error('the fallback stream was not expected');
};

/** The write end of a pipe whose reader never reads; libuv makes our end non-blocking. */
function unreadPipe(): { fd: number; closeReader: () => Promise<void>; stop: () => void } {
  // The reader holds its end open until told (on fd 3) to close it; then it says so and stays.
  const child = spawn('sh', ['-c', 'read _ <&3; exec 0<&-; echo gone; exec sleep 30'], { stdio: ['pipe', 'pipe', 'ignore', 'pipe'] });
  const fd = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  const gone = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return {
    fd,
    closeReader: async () => {
      (child.stdio[3] as NodeJS.WritableStream).write('close\n');
      await gone;
    },
    stop: () => child.kill('SIGKILL'),
  };
}

describe.skipIf(process.platform === 'win32')('fdWriter', () => {
  it('writes text to a file descriptor whole and in order', () => {
    const path = join(tmp, 'out.txt');
    const fd = openSync(path, 'w');
    const out = fdWriter(fd, noFallback, () => {})!;
    expect(out.isTTY).toBe(false);
    const lines = Array.from({ length: 2_000 }, (_, i) => `${i}\thé 👩‍💻 ${'x'.repeat(i % 97)}\n`);
    for (const line of lines) expect(out.write(line)).toBe(true);
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('leaves a terminal or other character device to the stream', () => {
    const fd = openSync('/dev/null', 'w');
    try {
      expect(fdWriter(fd, noFallback, () => {})).toBeUndefined();
    } finally {
      closeSync(fd);
    }
  });

  it('tells once when the reader has gone (EPIPE), and does not throw', async () => {
    const pipe = unreadPipe();
    try {
      await pipe.closeReader();
      let closed = 0;
      const out = fdWriter(pipe.fd, noFallback, () => closed++)!;
      expect(out.write('first\n')).toBe(true);
      expect(closed).toBe(1);
    } finally {
      pipe.stop();
    }
  });

  it('hands what a full non-blocking pipe did not take to the stream, in order', async () => {
    const pipe = unreadPipe();
    try {
      let streamed = '';
      let fallbacks = 0;
      const stream: OutStream = {
        write: (chunk) => ((streamed += chunk), true),
      };
      const out = fdWriter(pipe.fd, () => (fallbacks++, stream), () => {})!;
      // More than any pipe buffer (64 KiB on Linux): the reader never reads, so EAGAIN comes.
      const block = 'y'.repeat(1023) + '\n';
      for (let i = 0; i < 512; i++) out.write(block);
      expect(fallbacks).toBe(1);
      // What the pipe took plus what the stream got is everything, with nothing repeated.
      expect(streamed.length).toBeGreaterThan(0);
      expect(streamed.length).toBeLessThan(512 * 1024);
      expect(512 * 1024 - streamed.length).toBeGreaterThanOrEqual(4096);
      expect(streamed).toBe(block.repeat(512).slice(512 * 1024 - streamed.length));
    } finally {
      pipe.stop();
    }
  });
});
