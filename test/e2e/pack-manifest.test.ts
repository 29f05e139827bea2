// What the package ships, checked on every `npm test` (the slow install-and-run check is
// `npm run test:pack`): no required runtime dependencies, a bundle that imports nothing a global
// install would lack, declarations for the library, a man page that matches the command tree, and
// Markdown whose relative links all lead somewhere inside the package.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { esmOptions } from '../../scripts/bundle.mjs';
import { METAFILE } from '../../scripts/gen-notices.mjs';
import { buildProgram } from '../../src/cli/program.js';
import { createContext, systemClock } from '../../src/cli/create-context.js';
import { manPage } from '../../src/cli/commands/help/man-page.js';
import { VERSION } from '../../src/version.js';
import { captureStream } from '../helpers/run-cli.js';
import { deadRelativeLinks, isRelative, linkTargets } from '../helpers/markdown-links.js';
import { ensureBuilt, ROOT } from './ensure-built.js';

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  files: string[];
  man: string[];
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  types: string;
  license: string;
  repository: unknown;
  homepage: string;
  bugs: unknown;
  keywords: string[];
  scripts: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The JavaScript the package runs: dist/ is CommonJS (.cjs); .js and .mjs are counted should they appear. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? jsFiles(join(dir, e.name)) : /\.[cm]?js$/.test(e.name) ? [join(dir, e.name)] : []));
}

/** Module specifiers the bundle really loads: import statements, import() and require() calls
 * (not the require("…") strings that ajv keeps inside generated-code templates). */
function loadedSpecifiers(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)"([^"]+)"/g)) found.push(m[1]!);
  for (const m of code.matchAll(/(?<![`'"\w.])import\("([^"]+)"\)/g)) found.push(m[1]!);
  // require() calls, at the top of a chunk or lazy (an import() in the CommonJS bundle): all count.
  for (const m of code.matchAll(/(?<![`'"\w.])require\("([^"]+)"\)/g)) found.push(m[1]!);
  // Text that merely ends in "from" or "import" inside a string is not a module name.
  return found.filter((specifier) => /^[@\w.][\w./:@-]*$/.test(specifier));
}

/** The files `npm pack` puts in the tarball (the build is there already: no prepack). */
function packedFiles(): string[] {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const out = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, env, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return (JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
}

const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe('the package manifest', () => {
  beforeAll(ensureBuilt, 120_000);

  it('has no required runtime dependencies: everything the CLI runs is bundled', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
  });

  it('the bundle loads only Node built-ins, relative chunks and optional dependencies', () => {
    const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
    const offenders: string[] = [];
    const files = [...jsFiles(join(ROOT, 'dist')), join(ROOT, 'bin', 'socialpub.js')];
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['dist/main.cjs', 'dist/cli/entry.cjs', 'dist/sandbox/index.cjs', 'bin/socialpub.js']));
    expect(files.filter((f) => f.includes(`${join('dist', 'chunks')}`)).length).toBeGreaterThan(10);
    let seen = 0;
    for (const file of files) {
      for (const specifier of loadedSpecifiers(readFileSync(file, 'utf8'))) {
        seen++;
        if (specifier.startsWith('.') || isBuiltin(specifier) || optional.has(packageName(specifier))) continue;
        offenders.push(`${relative(ROOT, file)}: ${specifier}`);
      }
    }
    // The chunks require one another and Node's modules: a scan that finds nothing read nothing.
    expect(seen).toBeGreaterThan(50);
    expect(offenders, 'bundle it (move it to devDependencies) or make it an optionalDependency loaded with a guarded import()').toEqual([]);
  });

  it('optional dependencies are kept out of the bundle, so an install without them still runs', () => {
    for (const name of Object.keys(pkg.optionalDependencies ?? {})) expect(esmOptions.external).toContain(name);
  });

  it('ships the licence of every package bundled into dist/ (stale? run `npm run docs`)', () => {
    const meta = JSON.parse(readFileSync(join(ROOT, METAFILE), 'utf8')) as { inputs: Record<string, unknown> };
    const notices = readFileSync(join(ROOT, 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    const bundled = new Set(Object.keys(meta.inputs).flatMap((i) => [...i.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].slice(-1).map((m) => m[1]!)));
    expect(bundled.size).toBeGreaterThan(5);
    for (const name of bundled) expect(notices, name).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\S+ \\(`, 'm'));
  });

  it("ships the dashboard's assets inside the bundle, within their 150 kB", async () => {
    const { PAGE_CSS } = await import('../../src/wire/preview/style.js');
    const { DASHBOARD_SCRIPT } = await import('../../src/sandbox/dashboard/script.js');
    const assets = Buffer.byteLength(PAGE_CSS) + Buffer.byteLength(DASHBOARD_SCRIPT);
    expect(assets).toBeLessThanOrEqual(150 * 1024);
    const shipped = jsFiles(join(ROOT, 'dist')).map((f) => readFileSync(f, 'utf8')).join('\n');
    // Both are in dist/ as they are served (the package budget counts them with the rest).
    expect(shipped).toContain("'x-socialpub-fragment': '1'");
    expect(shipped).toContain('prefers-color-scheme:dark');
  });

  it('carries what a registry user expects', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toContain('Copyright (c) 2026 socialpub contributors');
    expect(pkg.repository).toBeTruthy();
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs).toBeTruthy();
    expect(pkg.keywords.length).toBeGreaterThan(3);
    expect(pkg.scripts.prepack).toContain('build');
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'completions']));
  });

  it('every path the manifest names exists after a build', () => {
    const paths = [...pkg.man, ...Object.values(pkg.bin), pkg.types];
    for (const entry of Object.values(pkg.exports)) paths.push(...(typeof entry === 'string' ? [entry] : Object.values(entry)));
    for (const p of paths) expect(existsSync(join(ROOT, p)), `${p} (npm run build makes it)`).toBe(true);
  });

  it('every relative link of a Markdown file it ships leads to a file it ships, or to a heading of that file', () => {
    const files = packedFiles();
    const docs = files.filter((f) => /\.md$/i.test(f));
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'skills/socialpub/SKILL.md']));
    for (const doc of docs) expect(deadRelativeLinks(doc, readFileSync(join(ROOT, doc), 'utf8'), files), `${doc}: ship the file, or link it absolutely, or name it without a link`).toEqual([]);
    // The README's own anchors were among the links checked: a reader that found no link checked nothing.
    expect(linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8')).filter(isRelative).length).toBeGreaterThan(0);
  });
});

describe('the man page', () => {
  beforeAll(ensureBuilt, 120_000);
  const page = join(ROOT, 'dist', 'man', 'socialpub.1');

  it('matches the command tree (stale? run `npm run docs`, or `npm run build`)', async () => {
    const ctx = createContext({
      io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) },
      env: {},
      clock: systemClock,
      signal: new AbortController().signal,
      version: VERSION,
    });
    expect(readFileSync(page, 'utf8'), 'dist/man/socialpub.1 is stale: run `npm run docs` (or `npm run build`)').toBe(manPage(await buildProgram(ctx), VERSION));
  });

  const hasMan = spawnSync('sh', ['-c', 'command -v man']).status === 0;
  // Not every machine has man-db (CI's does); the page's content is checked above either way.
  it.runIf(hasMan)('renders with man without a single warning', () => {
    // On a UTF-8 terminal, whatever locale this machine's environment has: in the C locale man
    // renders for ASCII and troff warns about every … and ✓ (CI's environment may set none).
    const r = spawnSync('man', ['--warnings', '-l', page], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8', MANWIDTH: '80', MAN_KEEP_FORMATTING: '', PAGER: 'cat' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('socialpub posts schedule');
  });
});
