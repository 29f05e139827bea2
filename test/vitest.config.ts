import { configDefaults, defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

// The top level of the repo is fixed, so the vitest config lives with the tests.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    // Packs, installs and runs the package: `npm run test:pack` (test/vitest.pack.config.ts).
    exclude: [...configDefaults.exclude, 'test/e2e/pack-install.test.ts'],
    environment: 'node',
    // Every temporary folder of the run under one, removed at the end (test/helpers/temp-root.ts).
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Forks, not threads: a worker thread's process.env is its own copy, so a test that sets TZ
    // would not move Intl's zone (test/unit/output-time.test.ts).
    pool: 'forks',
    // One module graph per worker instead of one per file: re-importing src/ and the libraries for
    // each of ~180 files was 60% of the suite's CPU time (140 s of CPU with isolation, 76 s
    // without). Nothing here mocks modules or stubs globals; the CLI runs with injected
    // env, streams and clock, so a file leaves nothing behind for the next.
    isolate: false,
    // Vitest's default on two cores is one worker, which sits idle while a test waits on a child
    // process or a socket; four keep both cores busy (more cores, one worker each).
    maxWorkers: Math.max(4, availableParallelism()),
    // jq-web's CommonJS export is a promise; loaded natively, its namespace becomes a thenable
    // that import() cannot settle. Transformed by vite it imports as the bundle sees it.
    server: { deps: { inline: ['jq-web'] } },
    // Nothing may read the real home folder or inherit a developer's key.
    env: { SOCIALPUB_API_KEY: '', SOCIALPUB_PROFILE: '', SOCIALPUB_BASE_URL: '' },
  },
});
