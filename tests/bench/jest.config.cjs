// `npm run bench`: a benchmark, not a test. Jest only runs it (TypeScript through swc and
// the shared test helpers); it asserts nothing about the budgets, it reports them.
const base = require('../jest.config.cjs');

module.exports = {
  ...base,
  rootDir: require('node:path').join(__dirname, '..'),
  testMatch: ['<rootDir>/bench/all.bench.ts'],
  testTimeout: 15 * 60_000,
  maxWorkers: 1,
};
