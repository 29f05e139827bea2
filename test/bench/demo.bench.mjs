// `socialpub demo` end to end (the built binary, a throwaway config folder): its wall time, which
// the e2e test no longer asserts. Target: under 30 s (it runs on a manual clock, so it does not
// wait for the publication it schedules).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, benchEnv, measure, median } from './lib.mjs';

export async function run({ runs = 5 } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'bench-demo-'));
  try {
    const env = benchEnv({ HOME: home, SOCIALPUB_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' });
    const times = [];
    for (let i = 0; i < runs; i++) {
      const r = await measure(process.execPath, [BIN, 'demo'], { env });
      if (r.code !== 0) throw new Error(`demo exited ${r.code}: ${r.stderr.slice(0, 500)}`);
      times.push(r.ms);
    }
    const ms = median(times);
    console.log(`demo: median ${Math.round(ms)} ms over ${runs} runs (target < 30000 ms) ${ms < 30_000 ? 'OK' : 'OVER TARGET'}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
