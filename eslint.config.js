// Lint: typescript-eslint's recommended rules (no type information, so it stays fast on
// 2 cores). Type checking itself is `tsc` in `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.state/**', 'artifacts/**', '**/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment only in a config.ts module.' },
      ],
    },
  },
  {
    // The dashboard runs in the browser: browser globals, and the rules of React hooks.
    files: ['services/dashboard/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/config.ts', '**/*.test.ts', 'tests/**', 'infra/**', 'tools/**', '**/bench/**', 'services/cli/bin/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
