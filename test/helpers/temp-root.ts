// Vitest's global setup: every temporary folder the tests make goes under one folder of this run
// (TMPDIR, which os.tmpdir() reads and the test workers inherit), removed when the run ends. A
// folder a test forgets (runCli's config folder, returned for the test to read) no longer piles up
// in the system's /tmp, where tens of thousands of them made every directory scan slow (esbuild's
// among them: a bundle under /tmp took minutes).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'socialpub-tests-'));
  // Others may pass through, as through /tmp (a test runs the program as another user); what each
  // test makes inside is its own (mkdtemp: 0700).
  chmodSync(root, 0o755);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
