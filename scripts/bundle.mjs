// `npm run bundle`: builds dist/ as CommonJS chunks (.cjs) that load one another with require()
// (why: the start-up comment at the top of bin/socialpub.js). esbuild splits only ESM, so the
// bundle is built as ESM in memory and each file is then turned into CommonJS by esbuild's own
// transform, dynamic import() included (one lazy require per command stays lazy). Nothing edits
// esbuild's output.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { build, transform } from 'esbuild';
import { METAFILE } from './gen-notices.mjs';

const root = new URL('../', import.meta.url).pathname;
export const ENTRY_POINTS = ['src/main.ts', 'src/cli/entry.ts', 'src/sandbox/index.ts'];

/**
 * The wire schemas with the part of zod they use, in files of their own (~35 kB): in the split
 * build zod's files are shared with the MCP SDK's zod, so the chunk the schemas would load is the
 * union of both (~130 kB, 4-7 ms more CPU on `results get`). Every import of one of these modules
 * in the split build requires its file instead, so each schema exists once and zod's shared chunk
 * never loads on a command's path. SyncPostly's schemas (only its dialect needs them) are a file
 * apart, so that our own dialect does not parse them. Export names within a file must not clash.
 */
const SCHEMA_FILES = [
  { file: 'wire-schemas.cjs', sources: ['src/wire/schemas.ts', 'src/wire/account-schemas.ts'] },
  { file: 'syncpostly-schemas.cjs', sources: ['src/wire/syncpostly/schemas.ts'] },
].map(({ file, sources }) => ({ file, sources: sources.map((s) => join(root, s)) }));

const schemasApart = {
  name: 'schemas-apart',
  setup(b) {
    b.onResolve({ filter: /schemas\.js$/ }, (args) => {
      const source = join(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      const apart = SCHEMA_FILES.find((f) => f.sources.includes(source));
      return apart ? { path: `./${apart.file}`, external: true } : undefined;
    });
  },
};

/** esbuild's options for the in-memory ESM build; the chunks already name each other `.cjs`. */
export const esmOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.13',
  outbase: 'src',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  // The keyring binding is optional: an install that cannot fetch it still runs.
  external: ['@napi-rs/keyring'],
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

/** One ESM output file as CommonJS: imports become require(), import() a lazy require(). */
export async function toCommonJs(code, file) {
  const out = await transform(code, {
    format: 'cjs',
    platform: 'node',
    target: 'node22.13',
    // ESM is always strict; the CommonJS wrapper is not unless told.
    banner: '"use strict";',
    supported: { 'dynamic-import': false },
    minifyWhitespace: true,
    minifySyntax: true,
    sourcefile: file,
  });
  // import.meta would silently become {} in CommonJS: refuse rather than ship a broken path.
  if (out.warnings.length) throw new Error(`${file}: ${out.warnings.map((w) => w.text).join('; ')}`);
  return out.code;
}

/** Bundles entryPoints (under outbase) into outdir as CommonJS chunks; returns esbuild's metafile. */
export async function bundle({ entryPoints = ENTRY_POINTS, outdir, outbase = esmOptions.outbase }) {
  const result = await build({ ...esmOptions, entryPoints, outdir, outbase, absWorkingDir: root, write: false, metafile: true, plugins: [schemasApart] });
  // Output files by their path in outdir, with forward slashes (as require() specifiers use).
  const inOutdir = (path) => relative(outdir, path).split(sep).join('/');
  const files = new Map();
  for (const file of result.outputFiles) {
    if (file.path.endsWith('.cjs')) files.set(inOutdir(file.path), await toCommonJs(file.text, file.path));
    else write(file.path, file.contents);
  }
  for (const { file, sources } of SCHEMA_FILES) {
    const users = [...files].filter(([, code]) => code.includes(`require("./${file}")`)).map(([rel]) => rel);
    if (!users.length) continue;
    // The name is relative to the requiring file: only chunks may require it.
    const outside = users.filter((rel) => !rel.startsWith('chunks/'));
    if (outside.length) throw new Error(`bundle: ${outside.join(', ')} import ${file}'s schemas from outside chunks/`);
    const stdin = { contents: sources.map((source) => `export * from ${JSON.stringify(source)};`).join('\n'), resolveDir: root, loader: 'ts', sourcefile: file };
    const alone = await build({ ...esmOptions, splitting: false, stdin, outdir: undefined, write: false, absWorkingDir: root, metafile: true });
    files.set(`chunks/${file}`, await toCommonJs(alone.outputFiles[0].text, file));
    // Its packages are bundled too: their licences are listed from the metafile's inputs.
    Object.assign(result.metafile.inputs, alone.metafile.inputs);
  }
  for (const [rel, code] of files) write(join(outdir, rel), code);
  return result.metafile;
}

/**
 * The compile cache runs before anything else is loaded, so it is one file of its own (no shared
 * chunk, which would load before the cache could cover it).
 */
export async function bundleCompileCache(outdir) {
  await build({ ...esmOptions, splitting: false, format: 'cjs', outExtension: {}, entryPoints: ['src/compile-cache.ts'], outfile: join(outdir, 'compile-cache.cjs'), outdir: undefined, absWorkingDir: root });
}

function write(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, contents);
}

/**
 * The sandbox library's declarations (package.json `exports.types`). `tsc -b tsconfig.json` (the
 * one type check of src, run first by `npm run bundle`) writes declarations for all of src to
 * .tsbuild/types; only sandbox/index.d.ts and the declarations it reaches ship.
 */
function copyLibraryTypes(outdir) {
  const from = join(root, '.tsbuild', 'types');
  const todo = ['sandbox/index.d.ts'];
  for (const seen = new Set(todo); todo.length; ) {
    const rel = todo.pop();
    const file = join(from, rel);
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`rm -rf .tsbuild && npm run build\``);
    const text = readFileSync(file, 'utf8');
    write(join(outdir, 'types', rel), text);
    for (const m of text.matchAll(/(?:from |import\()['"](\.\.?\/[^'"]+)\.js['"]/g)) {
      const next = join(dirname(rel), `${m[1]}.d.ts`);
      if (!seen.has(next)) todo.push(next), seen.add(next);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = join(root, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  const metafile = await bundle({ outdir });
  await bundleCompileCache(outdir);
  copyLibraryTypes(outdir);
  mkdirSync(dirname(join(root, METAFILE)), { recursive: true });
  writeFileSync(join(root, METAFILE), JSON.stringify(metafile));
}
