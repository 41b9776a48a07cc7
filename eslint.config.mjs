// ESLint (flat config). `npm run lint` runs it; CI fails on any error. Formatting is Prettier's job
// (eslint-config-prettier turns the stylistic rules off). The boundary rules below are the layering of
// docs/ARCHITECTURE.md, enforced: modules talk through each other's index.ts, plugins never import
// modules, components never import pages, and the contract imports nothing of the app.
import fs from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const dirs = (root) =>
  fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

// A server module may use another only through what that module exports on purpose: its index.ts.
const serverModules = dirs('server/modules');
const moduleZones = serverModules.flatMap((target) =>
  serverModules
    .filter((other) => other !== target)
    .map((other) => ({
      target: `./server/modules/${target}`,
      from: `./server/modules/${other}`,
      except: ['./index.ts'],
      message: `server/modules/${target} may only import server/modules/${other}/index.ts (its public API).`,
    })),
);

// A page group never reaches into another group's pages; shared UI lives in src/components.
const pageGroups = dirs('src/pages');
const pageZones = pageGroups.flatMap((target) =>
  pageGroups
    .filter((other) => other !== target)
    .map((other) => ({
      target: `./src/pages/${target}`,
      from: `./src/pages/${other}`,
      message: 'Pages never import another page group; move what both need to src/components.',
    })),
);

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'coverage/',
      'bench/out/',
      'src/.umi/',
      'src/.umi-production/',
      'src/.umi-test/',
      'public/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      // Without the parser mapping, import-x cannot read .ts files and no-cycle silently finds nothing.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...moduleZones,
            ...pageZones,
            {
              target: './server/plugins',
              from: './server/modules',
              message: 'Plugins never import modules: a module hands the plugin what it needs (see app.ts).',
            },
            {
              target: './src/components',
              from: './src/pages',
              message: 'Components never import pages.',
            },
            {
              target: './src/contract',
              from: ['./src/components', './src/pages', './src/services', './server', './mock'],
              message: 'The contract is the bottom layer: it imports nothing of the app.',
            },
            {
              target: './src',
              from: ['./server', './mock', './tests', './bench'],
              message: 'The UI never imports the server, mocks, tests or benches.',
            },
            {
              target: './server',
              from: './src',
              except: ['./contract'],
              message: 'The server shares only src/contract with the UI.',
            },
            {
              target: './mock',
              from: ['./server', './src/pages', './src/components', './src/services'],
              message: 'Mocks are typed by src/contract only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Test and bench files may reach anywhere, and jest's module factories use require().
    files: ['tests/**', 'bench/**', 'scripts/**', '*.config.*', '.umirc.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      'import-x/no-restricted-paths': 'off',
    },
  },
  prettier,
);
