// `npm run bundle`: builds dist/ as CommonJS chunks (.cjs) that load one another with require()
// (why: the start-up comment at the top of bin/socialpub.js). esbuild splits only ESM, so the
// bundle is built as ESM in memory and each file is then turned into CommonJS by esbuild's own
// transform, dynamic import() included (one lazy require per command stays lazy). Nothing edits
// esbuild's output.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, transform } from 'esbuild';
import { METAFILE } from './gen-notices.mjs';

const root = new URL('../', import.meta.url).pathname;
/** The split build's entries besides what the layers load lazily (src/main.ts is built alone, beside). */
export const ENTRY_POINTS = ['src/sandbox/index.ts'];

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

/**
 * The layers of the program: the modules every run of one kind loads, each layer one file
 * (loaded whole) instead of the dozens of chunks esbuild's split would make of them (it splits
 * by which lazily loaded modules reach each module, and a file costs ~0.25 ms to load whatever
 * its size). A layer holds its roots and everything they import statically, less what an
 * earlier layer holds (a `common` layer: what the static imports of each of its lists of roots all reach);
 * every import of one of its modules, from anywhere in the build, requires the layer's file
 * instead, so each of our modules exists once (a package that only another package imports may
 * be bundled again beside it: string-width in ora). What a layer imports lazily
 * (import()) stays lazy: a layer's own module inlined, another layer's file, or else a module of
 * the split build under a fixed name (chunks/lazy-…). Export names across a layer's modules
 * must not clash (the build fails naming them).
 */
const RUN_ROOTS = ['src/cli/entry.ts'];
const ACTION_ROOTS = ['src/cli/globals.ts', 'src/output/output.ts', 'src/output/colors.ts', 'src/output/heartbeat.ts'];
const REQUEST_ROOTS = ['src/config/resolve.ts', 'src/client/index.ts'];
export const LAYERS = [
  // What the sandbox library shares with any layer of the command line (the wire's rules, the
  // dialects' assumptions): the library never loads the command line.
  { file: 'chunks/shared.cjs', common: [[...RUN_ROOTS, ...ACTION_ROOTS, ...REQUEST_ROOTS], ['src/sandbox/index.ts']] },
  // Every run: the command line, the program and the definitions it needs before parsing.
  { file: 'cli/entry.cjs', roots: RUN_ROOTS },
  // Every command that runs an action: flags resolved, output, colours, the progress line.
  { file: 'chunks/action.cjs', roots: ACTION_ROOTS },
  // Every command that asks the service: the profile with its key, and the client.
  { file: 'chunks/request.cjs', roots: REQUEST_ROOTS },
];

/** The specifier that requires `target` (a path in outdir) from a file in `fromDir` (in outdir). */
function specifier(fromDir, target) {
  const rel = relative(fromDir || '.', target).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The fixed name of a module a layer imports lazily, in chunks/. */
function lazyName(abs) {
  const rel = relative(root, abs).replace(/^src\//, '').replace(/^node_modules\//, '').replace(/\.[cm]?[jt]s$/, '');
  return `chunks/lazy-${rel.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/**
 * Redirects imports of modules held by a file apart (a layer or a schema file) to that file,
 * relative to fromDir. Within a layer (self), its own modules stay; a lazy import of a module no
 * layer holds goes to its fixed name, recorded in `lazy`.
 */
function apartPlugin({ apart, fromDir, self, lazy }) {
  return {
    name: 'apart',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { inner: true } });
        if (r.errors.length || r.external || !r.path) return undefined;
        // A package a package imports is its own business: bundled again where a layer holds it too.
        const packageToPackage = r.path.includes('/node_modules/') && args.importer.includes('/node_modules/');
        const owner = packageToPackage ? undefined : apart.find((a) => a.members.has(r.path));
        if (owner === self) return undefined;
        if (owner) return { path: specifier(fromDir, owner.file), external: true };
        if (lazy && args.kind === 'dynamic-import') {
          const name = lazyName(r.path);
          lazy.set(name, r.path);
          return { path: specifier(fromDir, `${name}.cjs`), external: true };
        }
        return undefined;
      });
    },
  };
}

/** A layer's modules (absolute paths) and the package entries its modules import by name. */
async function layerMembers(roots, held) {
  const stop = {
    name: 'layer-members',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
        if (args.kind === 'dynamic-import') return { path: args.path, external: true };
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { inner: true } });
        return !r.errors.length && held.has(r.path) ? { path: args.path, external: true } : undefined;
      });
    },
  };
  const result = await build({ ...esmOptions, splitting: false, entryPoints: roots, outdir: join(root, '.tsbuild', 'layers'), write: false, absWorkingDir: root, metafile: true, plugins: [stop] });
  const members = new Set(Object.keys(result.metafile.inputs).map((input) => join(root, input)));
  const packages = new Set();
  for (const [name, input] of Object.entries(result.metafile.inputs)) {
    // Imported, not require()d: a require() in a function runs the package on first call, and
    // re-exporting it would run it at load (string-width's Unicode tables: ~30 ms).
    if (name.startsWith('src/')) for (const imp of input.imports) if (imp.kind === 'import-statement' && !imp.external && !imp.original.startsWith('.')) packages.add(join(root, imp.path));
  }
  return { members, packages };
}

/** The modules (and packages) that the static imports of every one of `entries` (each a list of roots) reach. */
async function commonMembers(entries, held) {
  const each = await Promise.all(entries.map((roots) => layerMembers(roots.map((r) => join(root, r)), held)));
  const members = new Set([...each[0].members].filter((m) => each.every((e) => e.members.has(m))));
  const packages = new Set(each.flatMap((e) => [...e.packages]).filter((p) => members.has(p)));
  return { members, packages };
}

/** The names each source module exports itself (`export *` aside), for the clash check. */
async function ownExports(sources) {
  const result = await build({ entryPoints: sources, bundle: false, format: 'esm', write: false, metafile: true, outdir: join(root, '.tsbuild', 'exports'), absWorkingDir: root, logLevel: 'silent' });
  return Object.values(result.metafile.outputs).filter((o) => o.entryPoint).map((o) => ({ source: join(root, o.entryPoint), exports: o.exports }));
}

/** One file apart (a layer or a schema file): `export *` from each module it holds that others import. */
async function buildApart(part, apart, lazy) {
  const sources = [...part.members].filter((m) => part.exported.has(m));
  const contents = sources.map((source) => `export * from ${JSON.stringify(source)};`).join('\n');
  const plugins = part.layer ? [apartPlugin({ apart, fromDir: dirname(part.file), self: part, lazy })] : [];
  const result = await build({ ...esmOptions, splitting: false, stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: part.file }, outdir: undefined, write: false, absWorkingDir: root, metafile: true, plugins });
  // An export name two modules share would be left out by `export *`: refuse it by name. (The
  // metafile lists such a name anyway: the names are read from the export clause itself.)
  const out = Object.values(result.metafile.outputs)[0];
  const exported = new Set([...result.outputFiles[0].text.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((item) => item.trim().split(/\s+as\s+/).pop())));
  // (A package's default export is not served: a default import of a layer fails the build below.)
  const missing = (await ownExports(sources)).flatMap(({ source, exports }) => exports.filter((e) => e !== 'default' && !exported.has(e)).map((e) => `${relative(root, source)}: ${e}`));
  if (missing.length) throw new Error(`bundle: ${part.file} cannot export these (a name another of its modules exports too): ${missing.join(', ')}`);
  return { code: await toCommonJs(result.outputFiles[0].text, part.file), inputs: result.metafile.inputs, output: out };
}

/**
 * Bundles entryPoints (under outbase) into outdir as CommonJS chunks, with the schema files and
 * the given layers apart; returns esbuild's metafile (inputs of every file).
 */
export async function bundle({ entryPoints, outdir, outbase = esmOptions.outbase, layers = [], alone = [] }) {
  const apart = SCHEMA_FILES.map(({ file, sources }) => ({ file: `chunks/${file}`, members: new Set(sources), exported: new Set(sources) }));
  const held = new Set(apart.flatMap((a) => [...a.members]));
  for (const { file, roots, common } of layers) {
    const { members, packages } = roots ? await layerMembers(roots.map((r) => join(root, r)), held) : await commonMembers(common, held);
    for (const m of members) held.add(m);
    // Its own source modules, and the packages its modules import by name (others may too).
    apart.push({ file, layer: true, members, exported: new Set([...members].filter((m) => !m.includes('/node_modules/')).concat([...packages])) });
  }
  const files = new Map();
  const inputs = {};
  const outputs = {};
  const lazy = new Map();
  for (const part of apart.filter((a) => a.layer)) {
    const built = await buildApart(part, apart, lazy);
    files.set(part.file, built.code);
    Object.assign(inputs, built.inputs);
    outputs[join(relative(root, outdir), part.file)] = built.output;
  }
  const entries = [...entryPoints.map((e) => resolve(root, e)), ...[...lazy].map(([out, abs]) => ({ in: abs, out }))];
  const result = await build({ ...esmOptions, entryPoints: entries, outdir, outbase, absWorkingDir: root, write: false, metafile: true, plugins: [apartPlugin({ apart, fromDir: 'chunks' })] });
  // Output files by their path in outdir, with forward slashes (as require() specifiers use).
  const inOutdir = (path) => relative(outdir, path).split(sep).join('/');
  const layerSpecifiers = apart.filter((a) => a.layer).map((a) => specifier('chunks', a.file));
  for (const file of result.outputFiles) {
    const defaults = layerSpecifiers.filter((spec) => new RegExp(`import\\s*[\\w$]+\\s*(,\\s*\\{[^}]*\\}\\s*)?from\\s*"${spec.replace(/[.]/g, '\\.')}"`).test(file.text));
    if (defaults.length) throw new Error(`bundle: ${inOutdir(file.path)} imports a default export from ${defaults.join(', ')}: a layer serves named exports only`);
    if (!file.path.endsWith('.cjs')) write(file.path, file.contents);
    else files.set(inOutdir(file.path), await toCommonJs(file.text, file.path));
  }
  Object.assign(inputs, result.metafile.inputs);
  for (const part of apart.filter((a) => !a.layer)) {
    if (![...files.values()].some((code) => code.includes(`${part.file.slice('chunks/'.length)}")`))) continue;
    const built = await buildApart(part, apart, lazy);
    files.set(part.file, built.code);
    Object.assign(inputs, built.inputs);
    outputs[join(relative(root, outdir), part.file)] = built.output;
  }
  // Entries built alone in outdir (main.ts): all they import is held apart.
  for (const entry of alone) {
    const out = relative(outbase, entry).replace(/\.ts$/, '.cjs');
    const built = await build({ ...esmOptions, splitting: false, entryPoints: [join(root, entry)], outdir: undefined, write: false, absWorkingDir: root, metafile: true, plugins: [apartPlugin({ apart, fromDir: dirname(out) === '.' ? '' : dirname(out) })] });
    const own = Object.keys(built.metafile.inputs).filter((i) => i !== entry);
    if (own.length) throw new Error(`bundle: ${entry} is built alone but bundles ${own.join(', ')}: import it from a layer`);
    files.set(out, await toCommonJs(built.outputFiles[0].text, entry));
  }
  // The names of files apart are relative to chunks/: only chunks (and layers, which name their own) may require them.
  for (const [rel, code] of files) {
    if (rel.startsWith('chunks/') || apart.some((a) => a.file === rel)) continue;
    const wrong = apart.filter((a) => code.includes(`require("${specifier('chunks', a.file)}")`));
    if (wrong.length) throw new Error(`bundle: ${rel} requires ${wrong.map((a) => a.file).join(', ')} from outside chunks/`);
  }
  for (const [rel, code] of files) write(join(outdir, rel), code);
  return { inputs, outputs: { ...result.metafile.outputs, ...outputs } };
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
  const metafile = await bundle({ entryPoints: ENTRY_POINTS, alone: ['src/main.ts'], layers: LAYERS, outdir });
  await bundleCompileCache(outdir);
  copyLibraryTypes(outdir);
  mkdirSync(dirname(join(root, METAFILE)), { recursive: true });
  writeFileSync(join(root, METAFILE), JSON.stringify(metafile));
}
