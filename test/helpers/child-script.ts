// A small script that runs source code in a process of its own (real processes for lock and
// crash tests): `contents` is bundled from the repository root with esbuild, without a build
// of the package.
import { build } from 'esbuild';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Writes the bundled script to `outfile` (imports in `contents` are relative to the repository root). */
export async function bundleChildScript(contents: string, outfile: string): Promise<string> {
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.13',
    outfile,
    // The system keyring's native binding is never loaded by these scripts.
    external: ['@napi-rs/keyring'],
    logLevel: 'error',
  });
  return outfile;
}
