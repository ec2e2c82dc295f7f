// Lint rules: the recommended sets, plus the few rules that keep the design card's promises
// (no stray `any`, no floating promises in handlers).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.data/**', 'coverage/**', 'bench/.build/**', 'shared/identity/password-list/list.ts'] },
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
    files: ['shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Use `import * as z from 'zod/mini'`: a bundle keeps only the zod it uses." }] }] },
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
