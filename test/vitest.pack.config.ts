import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:pack`: only the pack-install-run test, which `npm test` leaves out (it builds
// and installs the package, so it takes longer than the rest of an e2e run).
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/e2e/pack-install.test.ts'], exclude: configDefaults.exclude, testTimeout: 120_000 },
});
