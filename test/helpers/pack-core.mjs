// Part of `npm run bundle`: the chunks nearly every command loads (the program runner, flag
// resolution, output) become one file, chunks/core.cjs. Node's CommonJS loader spends ~0.15 ms
// resolving and reading each file, and a run loads some twenty of these small chunks (see the
// commit that added this for the figures). The chunks keep their own scope: core.cjs holds each
// one as a function and runs it on first use, as require() would, with the same exports object.

/** A require of a sibling output file, as esbuild writes it in CommonJS. */
const REQUIRE = /require\("(\.{1,2}\/[^"]+\.cjs)"\)/g;
/** The same, minus the lazy ones (an import() becomes `__toESM(require(…))` in a promise). */
const STATIC_REQUIRE = /(?<!__toESM\()require\("(\.{1,2}\/[^"]+\.cjs)"\)/g;

const CORE = 'chunks/core.cjs';

function join(from, spec) {
  const parts = from.split('/').slice(0, -1);
  for (const p of spec.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

function relative(from, to) {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  const up = a.slice(i).map(() => '..');
  const rel = [...up, ...b.slice(i)].join('/');
  return up.length ? rel : `./${rel}`;
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
      const dep = join(file, spec);
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
  const rewrite = (file, code, inCore) =>
    code.replace(REQUIRE, (whole, spec) => {
      const target = join(file, spec);
      if (!core.has(target)) return whole;
      const name = JSON.stringify(target.slice('chunks/'.length));
      return inCore ? `__core(${name})` : `require(${JSON.stringify(relative(file, CORE))})(${name})`;
    });
  const out = new Map();
  let pack = '"use strict";\nconst __chunks = {\n';
  for (const file of core) {
    pack += `${JSON.stringify(file.slice('chunks/'.length))}(exports, require, module, __filename, __dirname) {\n${rewrite(file, files.get(file), true)}\n},\n`;
  }
  pack += `};
const __loaded = Object.create(null);
/** A packed chunk's exports, running it on first use as require() would. */
function __core(name) {
  let mod = __loaded[name];
  if (mod) return mod.exports;
  mod = __loaded[name] = { exports: {} };
  __chunks[name].call(mod.exports, mod.exports, require, mod, __dirname + "/" + name, __dirname);
  return mod.exports;
}
module.exports = __core;
`;
  out.set(CORE, pack);
  for (const [file, code] of files) if (!core.has(file)) out.set(file, rewrite(file, code, false));
  return { files: out, packed: [...core] };
}
