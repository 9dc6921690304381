// Import rules that ESLint's no-restricted-imports cannot say (it sees one file at a time):
// rules between folders of the same package. `npm run lint` runs
//   depcruise --config .dependency-cruiser.cjs frontend/src
// and fails on any `error`. To add a package, cruise its folder too in the `lint` script
// and add its rules to `forbidden`, one commented block per package.
// Reference: https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // --- frontend (frontend/README.md, "Layout") -----------------------------------------
    {
      name: 'no-feature-to-feature',
      comment:
        'A file in frontend/src/features/X never imports frontend/src/features/Y, specs ' +
        'included: the route modules (frontend/src/app/routes) compose features, and what ' +
        'two features share lives in frontend/src/components or frontend/src/lib.',
      severity: 'error',
      from: { path: '^frontend/src/features/([^/]+)/' },
      to: {
        path: '^frontend/src/features/',
        pathNot: '^frontend/src/features/$1/',
      },
    },
  ],
  options: {
    // Resolve as the compilers do: the frontend's `@/…` alias (tsconfig.depcruise.json says
    // it relative to the repository root, where depcruise runs), packages by their `exports`,
    // and type-only imports count (they tie features together as much as value imports do).
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    tsPreCompilationDeps: true,
    // Only our own sources: packages and build output are not cruised.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-ssr|generated|node_modules)/' },
  },
};
