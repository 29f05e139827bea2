// Run by every build: writes the outputs bin/socialpub.js prints without loading the program
// (dist/prerendered/{help,piped}/<argv>.txt), rendered by the program's own command tree
// (scripts/prerender.ts, bundled for this run into a temporary folder: it does not ship).
// test/e2e/prerendered.test.ts fails when they are stale against the source.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { esmOptions } from './bundle.mjs';

const root = new URL('../', import.meta.url);
export const PRERENDERED_DIR = new URL('dist/prerendered/', root);

if (import.meta.url === `file://${process.argv[1]}`) {
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-prerender-'));
  try {
    const outfile = join(tmp, 'prerender.cjs');
    const { target, external } = esmOptions;
    await build({ entryPoints: [new URL('scripts/prerender.ts', root).pathname], bundle: true, platform: 'node', format: 'cjs', target, external, outfile, logLevel: 'warning' });
    const { prerender, prerenderFile, VERSION } = createRequire(import.meta.url)(outfile);
    rmSync(PRERENDERED_DIR, { recursive: true, force: true });
    for (const { argv, kind, text } of await prerender(VERSION)) {
      const dir = new URL(`${kind}/`, PRERENDERED_DIR);
      mkdirSync(dir, { recursive: true });
      writeFileSync(new URL(prerenderFile(argv), dir), text);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
