#!/usr/bin/env node
// Entry only: all logic lives in dist/main.cjs (built from src/main.ts).
//
// Start-up: the only code that exists for speed, each kept because it saves at least 5 ms on a
// command people run often. Measured with `npm run bench startup` (STARTUP_VARIANT: a build
// without the mechanism, run in the same paired rounds; NODE_BIN: Node 22 or 24), as the median
// paired difference in CPU time, Node 22 / Node 24:
// - Pre-rendered help (here; built by scripts/gen-prerendered.mjs from scripts/prerender.ts):
//   outputs that depend only on the command tree (--help of every command, --version, help
//   topics, completion scripts) are printed from dist/prerendered without loading the program,
//   on a pipe or file, and on a terminal only at the 80 columns they were rendered at.
//   45 / 43 ms on `--version`, 49 / 51 ms on `--help`, 49 / 44 ms on `posts --help`.
// - CommonJS chunks (scripts/bundle.mjs): esbuild splits code only as ESM, and its own transform
//   turns each chunk into CommonJS; this file is CommonJS too (bin/package.json). Against the
//   same split loaded as ESM: 45 / 52 ms on `results get`, 44 / 65 ms on `posts view`, 44 / 54 ms
//   on `posts list`; against one unsplit CommonJS file: 27-30 / 42-49 ms on the same three.
// - Layers (scripts/bundle.mjs, LAYERS): what every run loads (dist/cli/entry.cjs), what every
//   action loads (chunks/action.cjs) and what every request loads (chunks/request.cjs) are one
//   file each, with what the program shares with the sandbox library (chunks/shared.cjs), not
//   the ~45 chunks esbuild's split made of them: `results get` loads 16 files, not 59 (31
//   rounds): 18 / 12 ms on `results get`, 12 / 20 ms on `posts view`, 7 / 13 ms on `posts list`,
//   13 / 11 ms on `profile list`, 16 / 10 ms on `accounts list` (`npm run bench accounts`).
// - Lazy nouns and verbs (src/cli/commands/index.ts, named.ts): a run defines in full only the
//   nouns and verbs its argv names. 20 / 11 ms on `results get`, 9 / 7 ms on `posts view`,
//   7 / 15 ms on `posts list`.
// - Lazy run modules (each verb's `<verb>.run.ts`, imported by its action): against every
//   verb's run code loaded with its noun, 19 / 32 ms on `results get`, 8 / 16 ms on `posts view`.
// - Response checks without zod (scripts/gen-wire-checks.mjs writes src/wire/response-checks.ts
//   from the zod schemas at every build): an answer that fits its schema is taken by a plain
//   function that gives what safeParse gives; zod loads only to word a refused answer, and the
//   --fields names come from the same file. 7-10 / 6-9 ms on `results get` (31 and 41 paired
//   rounds), 8-10 / 10-12 ms on `posts list`; with posts view's own two habits
//   (docs/ARCHITECTURE.md), 10-18 / 13-18 ms on `posts view`.
// - The response schemas apart (scripts/bundle.mjs): they and the part of zod they use are built
//   on their own, not as a chunk shared with the MCP SDK's zod. 4-5 / 7 ms on `results get` when
//   measured, before the checks above; it now matters where zod still loads: a refused answer,
//   SyncPostly's dialect, `api`.
// - Node's compile cache (src/compile-cache.ts, module.enableCompileCache): 11 / 9 ms on
//   `results get`, 8 / 11 ms on `posts view`, 11 / 8 ms on `posts list`.
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
