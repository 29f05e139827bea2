import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// The top level of the repo is fixed, so the vitest config lives with the tests.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    // Packs, installs and runs the package: `npm run test:pack` (test/vitest.pack.config.ts).
    exclude: [...configDefaults.exclude, 'test/e2e/pack-install.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // jq-web's CommonJS export is a promise; loaded natively, its namespace becomes a thenable
    // that import() cannot settle. Transformed by vite it imports as the bundle sees it.
    server: { deps: { inline: ['jq-web'] } },
    // Nothing may read the real home folder or inherit a developer's key.
    env: { SOCIALPUB_API_KEY: '', SOCIALPUB_PROFILE: '', SOCIALPUB_BASE_URL: '' },
  },
});
