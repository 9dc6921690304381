// Browser and topology tests: they drive the built site, so `npm run build` comes first
// (the root `test:e2e` script does that).
const swc = [
  '@swc/jest',
  {
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  moduleNameMapper: {
    '^@awhh/machines$': '<rootDir>/../machines/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: [
    '<rootDir>/e2e/**/*.spec.ts',
    '<rootDir>/stack/**/*.spec.ts',
    '<rootDir>/fault/**/*.spec.ts',
    '<rootDir>/hostile/**/*.spec.ts',
    // The bench's own formatter and size reader: plain files, no build needed.
    '<rootDir>/bench/**/*.spec.ts',
  ],
  // One Chromium at a time: the machine has two cores.
  maxWorkers: 1,
  // A deadline, not a speed test: a browser journey that takes 40 s on a quiet machine took
  // over 60 s with both cores busy.
  testTimeout: 180_000,
  verbose: true,
};
