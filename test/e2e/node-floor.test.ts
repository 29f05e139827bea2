// On a Node older than the floor (22.13), the installed command says what it needs in one line
// and exits 1: the bin's check runs before anything an old Node could not parse or load.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

/** A Node older than the floor, when the machine has one (many have /usr/bin/node from the distribution). */
function oldNode(): { path?: string; reason: string } {
  const path = '/usr/bin/node';
  if (!existsSync(path)) return { reason: `${path} does not exist` };
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) return { reason: `${path} is ${version}, not older than 22.13` };
  return { path, reason: version };
}

const old = oldNode();

describe(`socialpub on an old Node (${old.reason})`, () => {
  it.skipIf(old.path === undefined)('prints one line naming the version it needs and exits 1', async () => {
    await ensureBuilt();
    for (const argv of [['--version'], ['posts', 'list', '--json']]) {
      const r = spawnSync(old.path!, [BIN, ...argv], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
      expect(r.status, argv.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`socialpub needs Node.js 22.13 or newer; this is ${old.reason}\n`);
    }
  });
});
