import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TEST_ENV } from './tests/support/config.js';

// Tests import workspace libraries by package name; point those names at the TypeScript
// sources so tests never run against a stale build.
const libsDir = fileURLToPath(new URL('./libs/', import.meta.url));
const alias = readdirSync(libsDir).map((name) => ({
  find: new RegExp(`^@framedeck/${name}$`),
  replacement: `${libsDir}${name}/src/index.ts`,
}));

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**', '**/dist/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'tests/**/*.test.ts',
            'libs/*/src/**/*.integration.test.ts',
            'services/*/src/**/*.integration.test.ts',
          ],
          // tests/cluster runs on the cluster topology: `npm run test:cluster` (project cluster).
          exclude: ['**/node_modules/**', '**/dist/**', 'tests/cluster/**'],
          globalSetup: ['tests/support/global-setup.ts'],
          env: TEST_ENV,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits 1 s by default: too short for a real browser and stack on 2 busy cores.
          expect: { poll: { timeout: 15_000 } },
          // Integration files share the real stack; running two at once on 2 cores only adds noise.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The cluster topology (docs/deployment.md): `npm run test:cluster` only, never `npm test`.
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          globalSetup: ['tests/cluster/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
