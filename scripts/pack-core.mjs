// Part of `npm run bundle`: the chunks nearly every command loads (the program runner, flag
// resolution, output) become one file, chunks/core.cjs, since Node's CommonJS loader spends
// ~0.15 ms on each file (why it stays: bin/socialpub.js). The chunks keep their own scope:
// core.cjs holds each one as a function and runs it on first use, as require() would. Every
// other chunk is loaded through core.cjs too, so that on Node 20 one loader with a code cache
// can serve them all (src/compile-cache.ts).
import { posix } from 'node:path';

/** A require of a sibling output file, as esbuild writes it in CommonJS. */
const REQUIRE = /require\("(\.{1,2}\/[^"]+\.cjs)"\)/g;
/** The same, minus the lazy ones (an import() becomes `__toESM(require(…))` in a promise). */
const STATIC_REQUIRE = /(?<!__toESM\()require\("(\.{1,2}\/[^"]+\.cjs)"\)/g;

const CORE = 'chunks/core.cjs';

/** The output file `spec` names, required from `file` (both relative to the output folder). */
const target = (file, spec) => posix.join(posix.dirname(file), spec);

/** How `file` requires `to`, starting with ./ or ../ as require() needs. */
function specifier(file, to) {
  const rel = posix.relative(posix.dirname(file), to);
  return rel.startsWith('../') ? rel : `./${rel}`;
}

/**
 * files: output path (posix, relative to the output folder) → CommonJS code. roots: the files
 * whose static closure is packed (those under chunks/; others stay files but load the pack).
 * Returns the new file set: the packed chunks gone, chunks/core.cjs added, requires rewritten.
 */
export function packCore(files, roots) {
  const core = new Set();
  const visit = (file) => {
    const code = files.get(file);
    if (code === undefined) throw new Error(`pack-core: ${file} is not an output file`);
    for (const [, spec] of code.matchAll(STATIC_REQUIRE)) {
      const dep = target(file, spec);
      if (!files.has(dep)) throw new Error(`pack-core: ${file} requires ${spec}, which is not an output file`);
      if (dep.startsWith('chunks/') && !core.has(dep)) {
        core.add(dep);
        visit(dep);
      }
    }
  };
  for (const root of roots) {
    if (root.startsWith('chunks/')) core.add(root);
    visit(root);
  }
  // Every chunk is reached through core.cjs, packed or not: one loader for all of them.
  const rewrite = (file, code, inCore) =>
    code.replace(REQUIRE, (whole, spec) => {
      const dep = target(file, spec);
      if (!dep.startsWith('chunks/')) return whole;
      const name = JSON.stringify(dep.slice('chunks/'.length));
      return inCore ? `__core(${name})` : `require(${JSON.stringify(specifier(file, CORE))})(${name})`;
    });
  const out = new Map();
  let pack = '"use strict";\nconst __chunks = {\n';
  for (const file of core) {
    pack += `${JSON.stringify(file.slice('chunks/'.length))}(exports, require, module, __filename, __dirname) {\n${rewrite(file, files.get(file), true)}\n},\n`;
  }
  pack += `};
const __loaded = Object.create(null);
let __load = require;
/**
 * A chunk's exports: a packed one run on first use as require() would, the others loaded from
 * their files by require(), or by the loader given to loadWith.
 */
function __core(name) {
  const packed = __chunks[name];
  if (!packed) return __load(__dirname + "/" + name);
  let mod = __loaded[name];
  if (mod) return mod.exports;
  mod = __loaded[name] = { exports: {} };
  packed.call(mod.exports, mod.exports, require, mod, __dirname + "/" + name, __dirname);
  return mod.exports;
}
/** Loads the chunks that are files of their own with load(absolute path) instead of require(). */
__core.loadWith = (load) => {
  __load = load;
};
module.exports = __core;
`;
  out.set(CORE, pack);
  for (const [file, code] of files) if (!core.has(file)) out.set(file, rewrite(file, code, false));
  return { files: out, packed: [...core] };
}
