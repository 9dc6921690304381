// One runner for the unit and API tests of every workspace; the browser suite lives in tests/.
const swc = (extra = {}) => [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', tsx: true, decorators: true },
      transform: {
        legacyDecorator: true,
        // Without metadata Nest's dependency injection silently injects undefined.
        decoratorMetadata: true,
        react: { runtime: 'automatic' },
      },
      ...extra,
    },
    module: { type: 'commonjs' },
  },
];

const jsSuffix = { '^(\\.{1,2}/.*)\\.js$': '$1' };
const machines = { '^@awhh/machines$': '<rootDir>/../machines/src/index.ts' };

module.exports = {
  // List every test by name: the names cite the spec rules they check.
  verbose: true,
  // A deadline, not a speed test: jest's 5 s default fails on a machine whose cores are busy.
  // Above testing-library's 15 s (frontend/test/setup.ts), so a slow wait fails by its message.
  testTimeout: 30_000,
  projects: [
    {
      displayName: 'machines',
      rootDir: '<rootDir>/machines',
      testEnvironment: 'node',
      transform: { '^.+\\.(t|j)sx?$': swc() },
      moduleNameMapper: { ...jsSuffix },
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts'],
    },
    {
      displayName: 'backend',
      rootDir: '<rootDir>/backend',
      testEnvironment: 'node',
      transform: { '^.+\\.(t|j|mj)sx?$': swc() },
      // ESM-only dependencies: sanitize-html's parser and its dom packages, @fastify/static's content-disposition, light-my-request's cookie (app.inject), jose (ticket tokens).
      transformIgnorePatterns: [
        '/node_modules/(?!(@nestjs|kysely|htmlparser2|domhandler|domutils|dom-serializer|domelementtype|entities|content-disposition|cookie|jose)/)',
      ],
      moduleNameMapper: { ...machines, ...jsSuffix },
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    },
    {
      displayName: 'frontend',
      rootDir: '<rootDir>/frontend',
      testEnvironment: 'jsdom',
      transform: { '^.+\\.(t|j)sx?$': swc() },
      moduleNameMapper: {
        ...machines,
        // Stylesheets and media first: '@/…/x.module.css' is a stub too, not the raw file.
        '\\.(css|svg|png|jpg|webp|woff2?)$': '<rootDir>/test/file-stub.cjs',
        '^@/config/env$': '<rootDir>/src/config/env.jest.ts',
        '^@/(.*)$': '<rootDir>/src/$1',
        ...jsSuffix,
      },
      setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
      testMatch: [
        '<rootDir>/src/**/*.spec.{ts,tsx}',
        '<rootDir>/test/**/*.spec.{ts,tsx}',
        '<rootDir>/build/**/*.spec.ts',
      ],
    },
  ],
};
