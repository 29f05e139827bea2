// `npm run docs` (run by every build): writes the man page dist/man/socialpub.1 from the built
// CLI's command tree, so the page installed by package.json's `man` field is never stale.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

export const MAN_PAGE = 'dist/man/socialpub.1';
const root = new URL('../', import.meta.url);

/** The page as the built CLI renders it now. */
export function renderManPage() {
  return execFileSync(process.execPath, [new URL('bin/socialpub.js', root).pathname, 'help', 'reference', '--man'], {
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(new URL('dist/man/', root), { recursive: true });
  writeFileSync(new URL(MAN_PAGE, root), renderManPage());
}
