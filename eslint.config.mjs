import path from 'node:path';
import { fileURLToPath } from 'node:url';
import comments from '@eslint-community/eslint-plugin-eslint-comments';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** The workspace's packages; a file belongs to the first whose folder holds it. */
const PACKAGES = ['config', 'plugins/branchify', 'player', 'frontend', 'cms', 'tests', 'scripts'];
const packageOf = (file) => {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  return PACKAGES.find((p) => rel === p || rel.startsWith(`${p}/`)) ?? '(root)';
};

/**
 * One package imports another by its name (`@branchify/shared`, `@branchify/player`), never by a
 * relative path into its folder nor into its `src/` or `dist/`. The test suites are white-box and
 * may import the units they test.
 */
const packageBoundaries = {
  meta: {
    type: 'problem',
    messages: {
      relative: 'Import {{pkg}} by its package name, not by a relative path into it.',
      deep: "Do not reach into a package's src/ or dist/: import its entry point.",
    },
  },
  create(context) {
    const file = context.filename;
    const own = packageOf(file);
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (/^@branchify\/[^/]+\/(src|dist)(\/|$)/.test(source)) return context.report({ node, messageId: 'deep' });
      if (!source.startsWith('.') || own === 'tests') return;
      const target = packageOf(path.resolve(path.dirname(file), source));
      if (target !== own) context.report({ node, messageId: 'relative', data: { pkg: target } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/build/**',
      'cms/public/**',
      'cms/.tmp/**',
      'cms/.strapi/**',
      'cms/types/generated/**',
      'tests/.tmp/**',
      'tests/e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { branchify: { rules: { 'package-boundaries': packageBoundaries } }, '@eslint-community/eslint-comments': comments },
    rules: {
      'branchify/package-boundaries': 'error',
      // A rule is switched off only with the reason on the same line (`-- why`).
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  // Typed lint: product code (server, shared config, player, web app) is checked against its own tsconfig.
  {
    files: ['plugins/branchify/server/src/**/*.ts', 'config/src/**/*.ts', 'player/src/**/*.{ts,tsx}', 'frontend/src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
  },
  // The server reads rows through typed queries (`query(strapi, UID.x)`, `knex<Row>(table)`, `rawRows<T>(...)`), never by casting.
  {
    files: ['plugins/branchify/server/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: [
            ':matches(TSAsExpression, TSTypeAssertion) > TSTypeReference.typeAnnotation > Identifier.typeName[name=/Row$/]',
            ':matches(TSAsExpression, TSTypeAssertion) > .typeAnnotation TSTypeReference:not(TSTypeOperator > *) > Identifier.typeName[name=/Row$/]',
          ].join(', '),
          message: 'Do not cast to a row type: query(strapi, UID.x) and knex<Row>(table) already answer typed rows.',
        },
        {
          selector: ':matches(TSAsExpression, TSTypeAssertion) > MemberExpression.expression > Identifier.property[name="rows"]',
          message: 'Read knex.raw results with rawRows<T>(result) from utils/strapi instead of casting `.rows`.',
        },
        {
          selector: 'NewExpression[callee.name="AppError"]',
          message: 'Throw through the factories in http/errors (notFound, conflict, badGateway…), one per status.',
        },
        {
          selector: 'CallExpression > MemberExpression.callee[property.name="transaction"] > MemberExpression.object[property.name="db"]',
          message: 'Write through durableTransaction(strapi, …) (utils/durable-transaction): it fails when the COMMIT fails.',
        },
      ],
    },
  },
  // The error factories and durableTransaction itself.
  {
    files: ['plugins/branchify/server/src/http/errors.ts', 'plugins/branchify/server/src/utils/durable-transaction.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // Node: the server, scripts, the test harness and fakes (CommonJS where the file is .js).
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['**/*.mjs', '**/*.mts', 'config/**', 'plugins/**', 'cms/**', 'tests/**', 'scripts/**'], languageOptions: { globals: { ...globals.node } } },
  { files: ['tests/**'], languageOptions: { globals: { ...globals.jest } } },
  // Browsers: the web app and the player.
  {
    files: ['frontend/src/**/*.{ts,tsx}', 'player/src/**/*.{ts,tsx}', 'tests/fakes/stripe/stripe-js-double.js', 'tests/e2e/support/stripe-js-double.js'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Product code's functions stay under 80 lines (a longer one says why in its disable comment).
  {
    files: ['frontend/src/**/*.{ts,tsx}', 'player/src/**/*.{ts,tsx}', 'plugins/branchify/server/src/**/*.ts', 'config/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // The Stripe.js double is injected into pages as a plain ES5 script, written the way Stripe.js is.
  {
    files: ['tests/e2e/support/stripe-js-double.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
);
