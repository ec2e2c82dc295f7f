import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Six projects: pure logic, HTTP against the local host on DynamoDB Local (the files that mock
// a module apart), CDK assertions,
// `npm start` run as a user runs it (signals, the README walkthrough), and the web console in
// a headless Chromium against the local host.
// Logs and EMF metrics are silenced: tests read answers and the table, not stdout.
const env = { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

/** The API test files that replace a module with `vi.mock` (to count calls inside the service). */
const MODULE_MOCKS = ['test/api/auth-login.test.ts', 'test/api/junk-input.test.ts', 'test/api/username-login.test.ts'];

export default defineConfig({
  test: {
    env,
    // At least two files at once: vitest's default (one less than the cores) runs them one by
    // one on two cores, where a file waiting on DynamoDB Local, a browser or a child process left
    // a third of the CPU idle (the whole run: 28 min one by one, 13 min two at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `npm test` runs with --coverage: a summary in the output, and the run fails when the
    // domain library's branch coverage falls under 90 % (type-only files are not code).
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'functions/**/*.ts', 'infra/local/**/*.ts'],
      // The stand-ins are the providers' side (test fixtures the demo also runs), not Tessera's code.
      exclude: ['**/*.d.ts', 'infra/local/stand-ins/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // The summary also when a test fails: CI output then says both what failed and what is covered.
      reportOnFailure: true,
      thresholds: { 'shared/**': { branches: 90 } },
    },
    // `isolate: false` where files allow it: a file then reuses the modules an earlier file of
    // its worker loaded instead of importing the library (and aws-cdk-lib) again, which took
    // 2 to 12 s a file. Every file still starts its own host, table and clock; a file that
    // changes process state (environment, spies, timers) sets it back in afterAll/afterEach.
    // `vi.mock` replaces a module only where nothing loaded it yet, so the files that mock a
    // module run isolated, in a project of their own.
    projects: [
      // Some unit files verify many signed SAML responses: 5 s was not enough with other suites on the same cores.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], env, testTimeout: 30_000, isolate: false } },
      {
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts', 'test/peers/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MODULE_MOCKS],
          globalSetup: ['test/support/global-setup.ts'],
          env,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
      {
        test: {
          name: 'api-module-mocks',
          include: MODULE_MOCKS,
          globalSetup: ['test/support/global-setup.ts'],
          env,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], env, testTimeout: 180_000, hookTimeout: 180_000, isolate: false } },
      // `npm start` itself, as a user runs it (its own DynamoDB Local, data directory and port).
      { test: { name: 'local', include: ['test/local/**/*.test.ts'], globalSetup: ['test/support/console-build-setup.ts'], env, testTimeout: 300_000, hookTimeout: 120_000 } },
      // The console's build is made once, before any file, by its global setup; browsers are slow on a loaded machine.
      {
        test: {
          name: 'console',
          include: ['test/console/**/*.test.ts'],
          isolate: false,
          globalSetup: ['test/support/global-setup.ts', 'test/support/console-build-setup.ts'],
          env,
          testTimeout: 300_000,
          hookTimeout: 180_000,
          // A poll waits for what the page does next (an enrollment confirmed, a row updated):
          // vitest's 1 s default failed a journey on a loaded CI machine. The test's own timeout still bounds it.
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
});
