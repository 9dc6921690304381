// Import rules that ESLint's no-restricted-imports cannot say (it sees one file at a time):
// rules between folders of the same package. `npm run lint` runs
//   depcruise --config .dependency-cruiser.cjs frontend/src backend/src
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
    // --- backend (docs/architecture.md, "The backend's modules") ------------------------
    {
      name: 'backend-no-module-cycles',
      comment:
        'The folders of backend/src (one Nest module each) depend on each other one way: ' +
        'no chain of imports leads from a module folder back to itself, even when no single ' +
        'file-level cycle exists (the rule looks at folders: a file of orders importing ' +
        'waitlist and another file of waitlist importing orders is a cycle). Where a ' +
        'module must react to another, it registers a handler (OrderEffects, JobHandlers, ' +
        "the holds' claim listeners) or listens to an event (docs/decisions/" +
        '0012-modules-by-domain.md).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^backend/src/[^/]+' },
      to: { path: '^backend/src/[^/]+', circular: true },
    },
    {
      name: 'backend-base-imports-no-domain',
      comment:
        'backend/src/common, config and store are what every module builds on: they import ' +
        'each other (and health, where the store registers its readiness) but no domain module.',
      severity: 'error',
      from: { path: '^backend/src/(common|config|store)/' },
      to: {
        path: '^backend/src/',
        pathNot: '^backend/src/(common|config|store|health)/',
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
