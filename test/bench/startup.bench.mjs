// P1 and the --help target: whole-process start-up against bare `node -e 0`.
import { BIN, compare, report } from './lib.mjs';

export async function run({ runs = 31 } = {}) {
  const node = process.execPath;
  const baseline = { cmd: node, args: ['-e', '0'] };
  report(await compare({ name: 'startup: socialpub --version vs node -e 0', subject: { cmd: node, args: [BIN, '--version'] }, baseline, runs }), 1.3);
  report(await compare({ name: 'startup: socialpub --help vs node -e 0', subject: { cmd: node, args: [BIN, '--help'] }, baseline, runs }), 2);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
