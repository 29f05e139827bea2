// `socialpub … | head`: the reader closing the pipe early ends socialpub quietly (exit 0, no
// stack trace), even in the middle of a long streamed list.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt } from './ensure-built.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sandbox;
beforeAll(async () => {
  await ensureBuilt();
  sb = await startSandbox({ port: 0, seed: 5, fixtures: 20_000, readLimit: 1_000_000 });
}, 120_000);
afterAll(() => sb?.close());

describe('a closed pipe', () => {
  it('ends a streamed --all listing quietly with exit 0', async () => {
    const key = sb.workspaces.find((w) => w.name === 'demo')!.apiKey;
    // Not spawnSync: the sandbox answering the child lives in this process's event loop.
    // The paths go in as arguments, not into the script text: a checkout path may hold any character.
    const child = spawn('bash', ['-c', 'set -o pipefail; "$0" "$1" results list --all -o ndjson | head -n 1', process.execPath, BIN], {
      env: { PATH: process.env.PATH, HOME: '/nonexistent', SOCIALPUB_CONFIG_DIR: '/nonexistent-socialpub', SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key },
    });
    const r = { stdout: '', stderr: '', status: null as number | null };
    child.stdout.setEncoding('utf8').on('data', (c: string) => (r.stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (r.stderr += c));
    r.status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toHaveProperty('id');
  });
});
