// Lint rules: the recommended sets, plus the few rules that keep the design card's promises
// (no stray `any`, no floating promises in handlers).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** An import of a domain folder (relative, from anywhere in shared/). */
const intoTheDomain = {
  regex: '(^|/)(identity|connections|connectors|audit|runs|jobs|email|openapi)(/|$)',
  message: 'A module below the domain must not import from it: move what both need down (shared/schemas, shared/store).',
};

/** Classic zod, refused in shared/ and functions/ (bundled code). */
const classicZod = { name: 'zod', message: "Use `import * as z from 'zod/mini'`: a bundle keeps only the zod it uses." };

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.data/**', 'coverage/**', 'bench/.build/**', 'console/dist/**', 'console/.dist-*/**', 'test-output/**', 'console/src/api/schema.d.ts', 'shared/identity/password-list/list.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read configuration through shared/config.ts only.' },
        {
          // `import { z }` drags every zod locale (≈ 260 KiB; 420 KiB with zod/mini) into each function bundle.
          selector: "ImportDeclaration[source.value=/^zod(\\/mini)?$/][importKind='value'] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod/mini'` so bundles can drop zod's locales.",
        },
      ],
    },
  },
  {
    // Classic zod hangs its methods on prototypes, so no bundle can drop any of it (~99 KiB).
    // ESLint keeps only the last options of a rule for a file, so the layering rules below repeat it.
    files: ['shared/**', 'functions/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [classicZod] }] },
  },
  {
    // Imports point down: the store, crypto, the field schemas and the HTTP helpers sit below the
    // domain (identity, connections, …), so none of them may reach up into it. The HTTP layer
    // proper (endpoint, middleware, route, request-state) composes the domain and is above it.
    files: ['shared/http/problem.ts', 'shared/http/responses.ts', 'shared/http/headers.ts', 'shared/http/cursors.ts', 'shared/http/common-schemas.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [classicZod], patterns: [intoTheDomain] }] },
  },
  {
    files: ['shared/store/**', 'shared/crypto/**', 'shared/schemas/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [classicZod], patterns: [intoTheDomain, { regex: '(^|/)http(/|$)', message: 'The store, crypto and the field schemas sit below shared/http.' }] },
      ],
    },
  },
  {
    files: ['shared/identity/**', 'shared/connections/**', 'shared/connectors/**', 'shared/audit/**', 'shared/runs/**', 'shared/jobs/**', 'shared/email/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [classicZod],
          patterns: [
            {
              regex: '(^|/)http/(common-schemas|validation|endpoint|route|request-state|middleware)(/|$)',
              message: 'The domain sits below the HTTP layer: field schemas and parseWith are in shared/schemas; route-only schemas stay with the routes.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/config.ts', 'infra/**', 'test/**', 'bench/**', 'vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // vitest's asymmetric matchers (expect.arrayContaining, ...) are typed `any`.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
