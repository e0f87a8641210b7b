import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/routeTree.gen.ts', 'tests/.artifacts/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // common/ is pure: used by the browser, the server and the worker alike.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/src/**', '**/server/**', '**/worker/**', 'node:*'] }],
    },
  },
  {
    // The browser may know the server's types, never its code.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/worker/**'], allowTypeImports: true }] },
      ],
    },
  },
  {
    // bulletproof-react: a feature never imports another feature; shared code goes to components/ or lib/.
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)[^/]+/', message: 'Features do not import each other: move shared code to components/ or lib/.' },
            { regex: '(^|/)features/', message: 'Features do not import each other: move shared code to components/ or lib/.' },
          ],
        },
      ],
    },
  },
);
