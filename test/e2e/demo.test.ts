// `socialpub demo` on a machine with no account: the built binary, no terminal, a fresh config
// folder that must stay untouched, exit 0 well within 30 seconds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

describe('socialpub demo', () => {
  const home = mkdtempSync(join(tmpdir(), 'socialpub-demo-home-'));
  const configDir = join(home, 'config');
  beforeAll(ensureBuilt, 120_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('walks through the whole job, exits 0 in under 30 s, and leaves the user config alone', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [BIN, 'demo'], {
      env: { PATH: process.env.PATH, HOME: home, SOCIALPUB_CONFIG_DIR: configDir, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const elapsed = Date.now() - started;
    expect(r.status, r.stderr).toBe(0);
    expect(elapsed).toBeLessThan(30_000);
    const out = r.stdout;
    for (const step of ['auth login --with-key', 'auth status', 'posts create', 'posts list --status draft', 'posts schedule', 'results wait', 'results list', 'results get']) {
      expect(out).toContain(`socialpub ${step}`);
    }
    expect(out).toContain('socialpub sandbox --write-profile');
    // Three platforms reported, success and failure rows merged, and the listener got each delivery.
    expect(out.match(/^\s*\S+Z\s+(twitter-x|bluesky|linkedin)\s+[✓✗]/gm)?.length).toBe(3);
    expect(out).toMatch(/✓ published/);
    expect(out).toMatch(/✗ failed/);
    expect(out).toMatch(/"provider"|context/);
    // The demo used a throwaway profile: nothing was written to the user's config folder.
    expect(existsSync(configDir) ? readdirSync(configDir) : []).toEqual([]);
  });
});
