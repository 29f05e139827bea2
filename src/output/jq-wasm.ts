// jq-web reads jq.wasm from its own folder as soon as it loads, and a file missing there ends the
// process from inside jq-web (a rejected promise nobody holds: 17 kB of its minified source and a
// stack). So this module, imported by jq.ts before jq-web, looks first and throws a plain error
// instead, and jq-web is never loaded. Imported only by jq.ts, it is bundled into the same file as
// jq-web, whose folder is then this file's (scripts/copy-jq-wasm.mjs puts the wasm there). Run from
// source (a .ts file), jq-web is its own package in node_modules and finds its own copy.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The installation lacks jq's WebAssembly: --jq cannot run (exit 1, reinstall). */
class JqMissingError extends Error {
  override readonly name = 'JqMissingError';
  constructor(readonly file: string) {
    super(`--jq cannot run: this installation of socialpub is missing ${file}; reinstall it (npm install -g socialpub)`);
  }
}

/** Where the bundled jq-web reads jq.wasm, or undefined when run from source. */
function bundledWasmPath(moduleFile: string | undefined): string | undefined {
  if (moduleFile === undefined || moduleFile.endsWith('.ts')) return undefined;
  return join(dirname(moduleFile), 'jq.wasm');
}

const wasm = bundledWasmPath(typeof __filename === 'string' ? __filename : undefined);
if (wasm !== undefined && !existsSync(wasm)) throw new JqMissingError(wasm);
