// Lint for every workspace. Imports flow one way (docs/architecture.md): frontend → machines,
// backend → machines, tests → everything; machines imports only xstate and zod.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noAppImports = {
  group: ['@awhh/frontend', '@awhh/backend', '**/frontend/src/**', '**/backend/src/**'],
  message: 'Nothing imports the frontend or the backend from outside (docs/architecture.md).',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'frontend/dist-ssr/**',
      'docs/**',
      'bench/results/**',
      '.stack/**',
      'data/**',
      '**/coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['machines/src/**/*.ts'],
    ignores: ['machines/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noAppImports,
            {
              regex: '^(?!xstate($|/)|zod($|/)|\\.{1,2}/)',
              message: 'machines/ imports only xstate and zod: no React, no Nest, no I/O.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noAppImports,
            {
              group: ['@nestjs/*', 'fastify', 'kysely', 'stripe', 'pg', 'better-sqlite3'],
              message: 'Server code stays out of the browser bundle.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['backend/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noAppImports,
            {
              group: ['react', 'react-dom', 'react-router', '@xstate/react'],
              message: 'No React on the server.',
            },
          ],
        },
      ],
    },
  },
);
