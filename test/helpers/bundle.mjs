// `npm run bundle`: builds dist/ as CommonJS chunks (.cjs) that load one another with require().
// Why not ESM: on Node 20 the ESM loader costs about 0.5 ms per module (URL resolution, async
// linking), and `profile list` loads some 30 chunks; require() of the same code starts ~14 ms
// sooner (see the commit that added this script). esbuild splits only ESM, so the bundle is
// built as ESM in memory and each file is then rewritten to CommonJS on its own, dynamic
// import() included (one lazy require per command stays lazy).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, transform } from 'esbuild';
import { METAFILE } from './gen-notices.mjs';

const root = new URL('../../', import.meta.url).pathname;
export const ENTRY_POINTS = ['src/compile-cache.ts', 'src/main.ts', 'src/cli/entry.ts', 'src/cli/prerender.ts', 'src/sandbox/index.ts'];

/**
 * commander requires node:child_process at load (2–3 ms) for executable subcommands, which this
 * CLI never has: it gets a stand-in that loads the real module on first use.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'socialpub' } : undefined,
    );
    b.onLoad({ filter: /^lazy-child-process$/, namespace: 'socialpub' }, () => ({
      contents: "let real; module.exports = { spawn: (...args) => (real ??= require('node:child_process')).spawn(...args) };",
      loader: 'js',
    }));
  },
};

/** esbuild's options for the in-memory ESM build; the chunks already name each other `.cjs`. */
export const esmOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  outbase: 'src',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  // undici loads only when a caller injects a dispatcher; the keyring binding is optional.
  external: ['undici', '@napi-rs/keyring'],
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [lazyChildProcessForCommander],
};

/** One ESM output file as CommonJS: imports become require(), import() a lazy require(). */
export async function toCommonJs(code, file) {
  const out = await transform(code, {
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
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
  const result = await build({ ...esmOptions, entryPoints, outdir, outbase, absWorkingDir: root, write: false, metafile: true });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.cjs') ? await toCommonJs(file.text, file.path) : file.contents);
  }
  return result.metafile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = join(root, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  const metafile = await bundle({ outdir });
  mkdirSync(dirname(join(root, METAFILE)), { recursive: true });
  writeFileSync(join(root, METAFILE), JSON.stringify(metafile));
}
