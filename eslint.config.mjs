// `npm run lint` (run by `npm test`): ESLint's recommended rules everywhere, plus the few
// type-aware typescript-eslint rules that catch what review catches (floating and misused
// promises, type-only imports, needless assertions). Type information costs ~25 s, so only
// rules that have found real mistakes here are type-aware; add more only if they pay the same way.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Node's globals for the plain JavaScript in bin/ and scripts/ (TypeScript checks its own files).
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'fetch', 'WebAssembly', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'completions/**', '.ci/**', '.tsbuild/**', 'coverage/**'] },
  js.configs.recommended,
  {
    rules: {
      // A CLI that strips terminal escapes and measures graphemes matches control characters and
      // code-point classes on purpose; every finding of these two was such a pattern.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
      // A variable a callback reads before its one assignment (a spinner created after the
      // callbacks that stop it) cannot be const: the callback would hit the temporal dead zone.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-unused-vars': ['error', { varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.eslintRecommended, tseslint.configs.base],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // TypeScript reports unused names itself where it matters; ESLint's rule misreads type-only uses.
      'no-unused-vars': 'off',
    },
  },
  {
    // Type-aware: src/, test/ and scripts/ as one program (test/tsconfig.lint.json, same options as
    // the type check). The project service opened two, src/ alone and test/ with src/ again
    // through its reference, so src/ was parsed and bound twice: ~15% more CPU for the same rules.
    files: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { parserOptions: { project: ['./test/tsconfig.lint.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'test/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: nodeGlobals },
  },
  {
    // bin/ is CommonJS (bin/package.json says so), for start-up speed.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, require: 'readonly', module: 'writable', __dirname: 'readonly' } },
  },
);
