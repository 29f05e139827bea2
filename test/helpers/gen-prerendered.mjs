// Run by every build: writes the outputs bin/socialpub.js prints without loading the program
// (dist/prerendered/{help,piped}/<argv>.txt), rendered by the built CLI's own command tree.
// test/unit/prerendered.test.ts fails when they are stale against the source.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
export const PRERENDERED_DIR = new URL('dist/prerendered/', root);

if (import.meta.url === `file://${process.argv[1]}`) {
  const { prerender, prerenderFile } = await import(new URL('dist/cli/prerender.cjs', root).href);
  const { VERSION } = await import(new URL('dist/main.cjs', root).href);
  rmSync(PRERENDERED_DIR, { recursive: true, force: true });
  const outputs = await prerender(VERSION);
  for (const { argv, kind, text } of outputs) {
    const dir = new URL(`${kind}/`, PRERENDERED_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL(prerenderFile(argv), dir), text);
  }
}
