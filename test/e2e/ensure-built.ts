// The end-to-end tests run the BUILT binary. `npm test` builds first (pretest); when a single
// e2e file is run on its own, this builds dist/ if it is missing or older than src/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'socialpub.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function isStale(): boolean {
  const main = join(ROOT, 'dist', 'main.cjs');
  if (!existsSync(main)) return true;
  return newestMtime(join(ROOT, 'src')) > statSync(main).mtimeMs;
}

/** Builds once even when several e2e files start at the same time (a lock folder serialises them). */
export async function ensureBuilt(): Promise<void> {
  if (!isStale()) return;
  // One lock per checkout, outside it: node_modules may be a link shared by several clones, which
  // would make each wait for (or time out on) another's build.
  const lock = join(tmpdir(), `socialpub-e2e-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 16)}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else is building; a lock older than two minutes was left by a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // It went away meanwhile.
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for another e2e build');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!isStale()) return;
    // The bundle alone (no type-check): `npm test` type-checks in its pretest step.
    execFileSync('npm', ['run', 'bundle', '--silent'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
