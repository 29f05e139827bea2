// The start-up targets (`--version` ≤ 1.3×, `--help` and `posts --help` ≤ 1.5×): whole-process start-up against bare `node -e 0`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, benchEnv, compare, report } from './lib.mjs';

const TARGETS = [
  [['--version'], 1.3],
  [['--help'], 1.5],
  [['posts', '--help'], 1.5],
  [['completion', 'bash'], 1.6],
  [['profile', 'list'], 1.6],
  [['help', 'environment'], 1.6],
];

export async function run({ runs = 31 } = {}) {
  const node = process.execPath;
  // An empty config folder, so `profile list` reads this machine's layout but no user's profiles.
  const configDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const options = { env: benchEnv({ SOCIALPUB_CONFIG_DIR: configDir }) };
  const baseline = { cmd: node, args: ['-e', '0'], options };
  try {
    for (const [argv, target] of TARGETS) {
      report(await compare({ name: `startup: socialpub ${argv.join(' ')} vs node -e 0`, subject: { cmd: node, args: [BIN, ...argv], options }, baseline, runs }), target);
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
