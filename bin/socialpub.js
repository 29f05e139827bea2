#!/usr/bin/env node
// Entry only: all logic lives in dist/main.cjs (built from src/main.ts). CommonJS (bin/package.json)
// because the ESM loader alone costs more start-up time than printing help: outputs that depend
// only on the command tree were rendered at build time (dist/prerendered, see
// src/cli/prerender.ts) and are printed from here; everything else loads the program.
'use strict';
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
