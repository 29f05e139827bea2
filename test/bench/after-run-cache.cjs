// Bench-only experiment, preloaded with `-r` (STARTUP_AFTER_RUN_CACHE=1): the build's dist/*.cjs
// files compiled through node:vm with a V8 code cache taken when the process exits, so the cache
// holds every function the run compiled. Node's own compile cache (module.enableCompileCache,
// the one the program uses) is taken when a file is compiled, before it runs: the functions a
// command then calls are compiled again at every start. This measures what that costs, for the
// decision issue 30 asks for; it is not how the program loads, and it uses the CommonJS loader's
// internals (Module.prototype._compile), which the program itself must not.
'use strict';
const process = require('node:process');
const Module = require('node:module');
const { Script } = require('node:vm');
const { mkdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const dir = process.env.BENCH_AFTER_RUN_CACHE;
if (!dir) throw new Error('after-run-cache.cjs needs BENCH_AFTER_RUN_CACHE (a folder for the caches)');
mkdirSync(dir, { recursive: true });
const toWrite = [];
const compile = Module.prototype._compile;

Module.prototype._compile = function compileWithAfterRunCache(content, filename) {
  if (!filename.includes('/dist/') || filename.includes('/node_modules/')) return compile.call(this, content, filename);
  // A rebuilt file gets a new cache: the key holds its size and modification time. Each command
  // (the first two arguments) keeps its own: the figure is what a cache holding every function
  // that command calls would save, the most a cache shared by all commands could approach.
  const { size, mtimeMs } = statSync(filename);
  const command = process.argv.slice(2, 4).join('_').replace(/[^\w-]/g, '');
  const key = join(dir, `${filename.replace(/[/\\:]/g, '_')}-${size}-${Math.round(mtimeMs)}-${command}`);
  let cachedData;
  try {
    cachedData = readFileSync(key);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(content), { filename, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) toWrite.push({ key, script });
  const req = (id) => this.require(id);
  req.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
  req.main = require.main;
  req.cache = Module._cache;
  return script.runInThisContext().call(this.exports, this.exports, req, this, filename, dirname(filename));
};

// Taken at exit, after the run: the cache now holds the functions the command called.
process.on('exit', () => {
  for (const { key, script } of toWrite) writeFileSync(key, script.createCachedData());
});
