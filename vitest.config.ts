import { defineConfig } from 'vitest/config';

// CI asks for a JSON report to print its "N passed, N failed" line.
const reportFile = process.env.TOOLSTEPS_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Compiles and bundles once what a dozen files run as child processes (see the file).
    globalSetup: ['test/support/global-setup.ts'],
    // Sandbox tests bind loopback ports; two workers match the 2-core machine.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: reportFile ? ['default', ['json', { outputFile: reportFile }]] : ['default'],
  },
});
