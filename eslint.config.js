// One lint configuration for the whole repo (TypeScript strict code, React function components).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.run/**', 'test-artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // CSS-module and asset typings are wired with path references.
      '@typescript-eslint/triple-slash-reference': ['error', { path: 'always', types: 'prefer-import', lib: 'always' }],
    },
  },
  {
    files: ['frontends/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // An effect's arrow returns nothing or a clean-up function, never a call's value: browsers change what
      // DOM calls return (Chromium's scrollIntoView now returns a promise), and React then fails on unmount.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name=/^use(Layout|Insertion)?Effect$/] > ArrowFunctionExpression.arguments:first-child[body.type!='BlockStatement'][body.type!='ArrowFunctionExpression'][body.type!='FunctionExpression']",
          message: 'Write the effect in braces: an expression body returns its value to React as the clean-up.',
        },
      ],
    },
  },
  {
    // Plain scripts the browser loads as files (no inline scripts under the gateway's CSP).
    files: ['frontends/**/public/**/*.js', 'infra/keycloak/themes/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
