// `npm run test:compose`: docker-compose.yml and the Dockerfiles on a real Docker engine
// (compose.spec.ts). Apart from the browser suites (../jest.config.cjs), so that `npm test`
// runs both side by side; it needs no build of its own, Docker builds the images.
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
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/**/*.spec.ts'],
  maxWorkers: 1,
  // Each step sets its own generous deadline; a cold first run builds base images.
  testTimeout: 10 * 60_000,
  verbose: true,
};
