// Lint config: typescript-eslint's recommended rules on every TypeScript and script file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-demo/',
      'bench-results/',
      '.gpu/',
      '.gpu-perf/',
      '.gl/',
      '.pack/',
      'examples/*/dist/',
      'docs/api/',
      'examples/*/.next/',
      'examples/*/.svelte-kit/',
      'examples/*/build/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
