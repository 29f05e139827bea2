#!/usr/bin/env node
// Entry only: all logic lives in dist/main.cjs (built from src/main.ts).
//
// Start-up: the only code that exists for speed, each kept because it saves at least 5 ms on a
// command people run often (A/B runs of two builds paired as `npm run bench startup` pairs them,
// Node 20 and 22, wall and CPU time):
// - Pre-rendered help (here; built by scripts/gen-prerendered.mjs from scripts/prerender.ts):
//   outputs that depend only on the command tree (--help of every command, --version, help
//   topics, completion scripts) are printed from dist/prerendered without loading the program.
//   ~18 ms on `--help` and `posts --help`.
// - CommonJS chunks (scripts/bundle.mjs): esbuild splits code only as ESM, and Node's ESM loader
//   costs ~12 ms more than require() on `profile list` and `results get`; so the chunks are
//   rewritten to .cjs, and this file is CommonJS too (bin/package.json).
// - The core pack (scripts/pack-core.mjs): the chunks nearly every command loads are one file,
//   chunks/core.cjs (the program runner, flags, output; the client, profile resolution and
//   response schemas that networked commands share). ~6 ms on `profile list`.
// - The response schemas apart (scripts/bundle.mjs): they and the part of zod they use are built
//   on their own, not as a chunk shared with the MCP SDK's zod. ~4 ms CPU on `results get`.
// - Lazy nouns (src/cli/commands/index.ts): a run defines only the nouns its argv names; help
//   and completion define all. ~7 ms on `profile list`.
// - V8's compiled code kept between runs (src/compile-cache.ts): Node's compile cache on Node
//   22.1+ (~6 ms on `results get`); Node 20 has no such API, so there the chunks are compiled
//   through node:vm with a code cache, core.cjs loading every chunk (scripts/pack-core.mjs):
//   ~6 ms on `results get` and ~5 ms on `profile list` for the core pack, ~2 ms more on
//   `posts view` for the other chunks.
'use strict';
// Older Nodes are told the floor in one line: this check comes first, in syntax any Node parses.
var NODE = process.versions.node.split('.').map(Number);
if (NODE[0] < 22 || (NODE[0] === 22 && NODE[1] < 13)) {
  process.stderr.write('socialpub needs Node.js 22.13 or newer; this is ' + process.version + '\n');
  process.exit(1);
}
const { fstatSync, readFileSync, writeSync } = require('node:fs');
const { join } = require('node:path');

/** The build-time output for this argv, or undefined when the program must answer. */
function prerendered(argv) {
  if (argv.length === 0 || argv.length > 4 || !argv.every((a) => /^(-{1,2})?[a-z][a-z0-9-]*$/.test(a))) return undefined;
  const dir = join(__dirname, '..', 'dist', 'prerendered');
  const file = argv.join(' ') + '.txt';
  const read = (kind) => {
    try {
      return readFileSync(join(dir, kind, file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const help = read('help');
  const piped = help === undefined ? read('piped') : undefined;
  // Most argvs have no file: they are told that before anything asks about the terminal.
  if (help === undefined && piped === undefined) return undefined;
  if (!onTerminal()) return help ?? piped;
  // On a terminal only help qualifies (topics may page), and only at the width it was rendered for.
  return process.stdout.columns === 80 ? help : undefined;
}

/** Whether stdout is a terminal; a pipe or file is told apart without loading node:tty (and net). */
function onTerminal() {
  try {
    if (!fstatSync(1).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return require('node:tty').isatty(1);
}

function writeAll(text) {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done);
    } catch (err) {
      // `socialpub … | head` closes the pipe early: that is the reader's choice, not an error.
      if (err.code === 'EPIPE') return;
      // A non-blocking pipe that is full: wait for the reader rather than lose output.
      if (err.code !== 'EAGAIN') throw err;
    }
  }
}

const argv = process.argv.slice(2);
const text = prerendered(argv);
if (text !== undefined) writeAll(text);
else {
  require('../dist/compile-cache.cjs').enableCompileCache(process.env);
  require('../dist/main.cjs')
    .main(argv)
    .then((code) => (process.exitCode = code));
}
