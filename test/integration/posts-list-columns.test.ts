// `posts list` on a terminal at 60 and 120 columns: at 60, `--status scheduled` keeps the text
// (posts told apart by what they say) before the platform list; at 120 the platforms are named
// where they fit rather than counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
// Wider than the 24 columns platform names used to be held to.
const PLATFORMS = 'twitter-x,linkedin,threads';
beforeAll(async () => {
  sb = await manualSandbox();
  for (const [i, text] of ['Monday: the roadmap for spring', 'Tuesday: a customer story', 'Wednesday: release notes'].entries()) {
    const at = new Date(sb.clock.now() + (i + 1) * 86_400_000).toISOString();
    const r = await cli(['posts', 'schedule', '--platform', PLATFORMS, '--text', text, '--at', at, '-q']);
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(async () => {
  await sb.close();
});

function cli(argv: string[], options: Parameters<typeof runCli>[1] = {}) {
  return runCli(argv, { clock: sandboxClock(sb.clock), ...options, env: { ...cliEnv(sb), TZ: 'Europe/Paris', NO_COLOR: '1', ...options.env } });
}

describe('posts list columns', () => {
  it('at 60 columns, --status scheduled keeps id, time and text; the platform list gives way first', async () => {
    const r = await cli(['posts', 'list', '--status', 'scheduled'], { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['ID', 'SCHEDULED', 'TITLE / TEXT']);
    const texts = rows.map((l) => l.split(/\s{2,}/)[2]);
    expect(texts).toEqual([expect.stringMatching(/^Wednesday: release/), expect.stringMatching(/^Tuesday: a customer/), expect.stringMatching(/^Monday: the roadmap/)]);
    for (const line of r.stdout.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('at 40 columns the text outlives the id', async () => {
    const r = await cli(['posts', 'list', '--status', 'scheduled'], { tty: true, columns: 40 });
    expect(r.stdout.split('\n')[0]).toContain('TITLE / TEXT');
    expect(r.stdout).toMatch(/Monday: the/);
  });

  it('at 120 columns the platforms are named, not counted', async () => {
    for (const status of [['--status', 'scheduled'], []]) {
      const r = await cli(['posts', 'list', ...status], { tty: true, columns: 120 });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(PLATFORMS);
      expect(r.stdout).not.toContain('3 platforms');
      expect(r.stdout).toContain('Monday: the roadmap for spring');
      for (const line of r.stdout.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(120);
    }
  });
});
