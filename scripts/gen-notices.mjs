// Run by `npm run docs` after each bundle: the bundle carries third-party code, so the package
// carries their licences. Lists every package esbuild put into dist/ (from its metafile) with
// its licence text, in dist/THIRD-PARTY-LICENSES.txt.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
// Beside the type checker's output (gitignored), in this checkout: node_modules may be shared.
export const METAFILE = '.tsbuild/bundle-meta.json';
export const NOTICES = 'dist/THIRD-PARTY-LICENSES.txt';

/** Package folders (under node_modules/) whose files esbuild bundled. */
export function bundledPackages() {
  const meta = JSON.parse(readFileSync(new URL(METAFILE, root), 'utf8'));
  const dirs = new Set();
  for (const input of Object.keys(meta.inputs)) {
    // The innermost node_modules/<name> (or <scope>/<name>) is the package that owns the file.
    const m = input.match(/^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (m) dirs.add(input.slice(0, input.lastIndexOf(`node_modules/${m[1]}/`)) + `node_modules/${m[1]}`);
  }
  return [...dirs].sort();
}

function notice(dir) {
  const pkg = JSON.parse(readFileSync(new URL(`${dir}/package.json`, root), 'utf8'));
  const file = readdirSync(new URL(`${dir}/`, root)).find((f) => /^(licen[cs]e|copying)/i.test(f));
  const text = file ? readFileSync(new URL(`${dir}/${file}`, root), 'utf8').trim() : `(no licence file; package.json says ${pkg.license})`;
  return `${pkg.name} ${pkg.version} (${pkg.license ?? 'see text'})\n${'-'.repeat(60)}\n${text}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(new URL(METAFILE, root))) throw new Error(`${METAFILE} is missing: run \`npm run bundle\``);
  const body = bundledPackages().map(notice).join('\n\n');
  writeFileSync(new URL(NOTICES, root), `socialpub bundles the following packages into dist/. Their licences follow.\n\n${body}`);
}
