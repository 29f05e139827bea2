// `node scripts/run-parallel.mjs typecheck lint`: runs those npm scripts at the same time (npm
// test's pretest: the type check and the type-aware lint each hold one core for their own program
// of the same files). Each one's output is printed whole when it ends, so the two never interleave;
// the exit code is the first failure's, or 0.
import { spawn } from 'node:child_process';

// npm sets npm_execpath to its own CLI: the same npm, run by the same Node, without a shell.
const npm = process.env.npm_execpath;
const names = process.argv.slice(2);
if (!npm || names.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs SCRIPT... from an npm script (as package.json\'s pretest does), which sets npm_execpath');
  process.exit(2);
}

const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [npm, 'run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const out = [];
      child.stdout.on('data', (c) => out.push(['stdout', c]));
      child.stderr.on('data', (c) => out.push(['stderr', c]));
      child.on('error', (err) => resolve({ name, code: 1, out: [['stderr', Buffer.from(`${err.message}\n`)]] }));
      child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), out }));
    }).then((run) => {
      for (const [stream, chunk] of run.out) process[stream].write(chunk);
      if (run.code !== 0) console.error(`npm run ${run.name} failed (exit ${run.code})`);
      return run.code;
    }),
);
const codes = await Promise.all(runs);
process.exitCode = codes.find((c) => c !== 0) ?? 0;
