// `socialpub demo` on a machine with no account: the built binary, no terminal, a fresh config
// folder that must stay untouched, exit 0. The demo runs on its own manual clock, so it never
// waits for the publication it schedules; how long it takes is measured by
// `npm run bench demo` (target: under 30 s), not asserted here.
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

  it('walks through the whole job, exits 0, and leaves the user config alone', () => {
    const r = spawnSync(process.execPath, [BIN, 'demo'], {
      env: { PATH: process.env.PATH, HOME: home, SOCIALPUB_CONFIG_DIR: configDir, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
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
    // The schedule was a few seconds ahead on the demo's clock, and the wait skipped it.
    expect(out).toContain("the demo's clock skips the wait");
    // The demo used a throwaway profile: nothing was written to the user's config folder.
    expect(existsSync(configDir) ? readdirSync(configDir) : []).toEqual([]);
  });
});
