import js from '@eslint/js';
import checkFile from 'eslint-plugin-check-file';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The repo's top-level code folders: a relative import reaching one of them leaves its own folder. */
const TOP_FOLDERS = ['bench', 'common', 'core', 'domain', 'migrations', 'scripts', 'server', 'src', 'tests', 'worker'];

const SERVER_FENCE =
  "Server features do not import each other's insides: move what several share to server/shared/ (or domain/); outside features, import only a feature's *.router.ts or *.http.ts (docs/architecture.md, Layout).";

const reaching = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;

/**
 * Config objects that keep `folder`'s imports to the folders in `allowed` (tests/ too in its test
 * files). `typesFrom`: folders it may import types from, nothing else; `extra`: more patterns.
 */
function zone(folder, allowed, { typesFrom = [], extra = [], files = '**/*.ts' } = {}) {
  const message = `${folder}/ imports only from ${allowed.map((f) => `${f}/`).join(', ')}${
    typesFrom.length ? ` (types from ${typesFrom.map((f) => `${f}/`).join(', ')})` : ''
  }: see DESIGN.md, Layout.`;
  const rules = (mayReach) => {
    const refused = TOP_FOLDERS.filter((f) => !mayReach.includes(f) && !typesFrom.includes(f));
    return {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: reaching(refused), message },
            ...(typesFrom.length ? [{ regex: reaching(typesFrom), message, allowTypeImports: true }] : []),
            ...extra,
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression[source.value=/${reaching([...refused, ...typesFrom]).replaceAll('/', '\\/')}/]`, message },
      ],
    };
  };
  return [
    { files: [`${folder}/${files}`], rules: rules(allowed) },
    { files: [`${folder}/**/*.test.ts`], rules: rules([...allowed, 'tests']) },
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/routeTree.gen.ts', 'tests/.artifacts/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // the service worker runs in its own global scope (no bundler, no imports)
    files: ['public/sw.js'],
    languageOptions: { globals: { self: 'readonly', caches: 'readonly', clients: 'readonly', fetch: 'readonly', Request: 'readonly', Response: 'readonly', URL: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  // The layers of DESIGN.md (Layout): common <- core <- domain <- {server, worker} <- scripts, and
  // src -> common only. Each folder names the top-level folders it may reach; the rest are refused,
  // in static imports, re-exports and dynamic import() alike. Tests may also use tests/helpers.
  ...zone('common', ['common'], { extra: [{ group: ['node:*'], message: 'common/ runs in the browser too: no node:* modules.' }] }),
  ...zone('core', ['common', 'core']),
  ...zone('domain', ['common', 'core', 'domain']),
  ...zone('server', ['common', 'core', 'domain', 'server']),
  ...zone('worker', ['common', 'core', 'domain', 'worker']),
  // The ledger's core (issue 45) knows accounts and journals, not what moved the money: it imports
  // common/ and core/ only, never billing, earnings or any other domain module.
  {
    files: ['domain/ledger/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)', message: 'domain/ledger/ imports nothing of the rest of domain/ (docs/payments.md, The ledger).' },
            { regex: reaching(TOP_FOLDERS.filter((f) => f !== 'common' && f !== 'core')), message: 'domain/ledger/ imports only from common/ and core/.' },
          ],
        },
      ],
    },
  },
  // The browser may know the server's types (AppRouter), never its code.
  ...zone('src', ['common', 'src'], { typesFrom: ['server'], files: '**/*.{ts,tsx}' }),
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
  // The server's features are fenced like the client's: a feature (server/features/<name>/) imports
  // nothing of another feature; what several need lives in server/shared/ (post cards, creator
  // cards, visible-post), server/auth/ or domain/. The rest of server/ (app.ts, trpc/router.ts, http/,
  // shared/, realtime/, auth/) reaches a feature only through its entry points, its *.router.ts and
  // *.http.ts. Type imports count as imports: a feature's types are its insides too.
  {
    files: ['server/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)', message: SERVER_FENCE },
            { regex: '(^|/)features/', message: SERVER_FENCE },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)features/[^/]+/(?![^/]+\\.(router|http)$)', message: SERVER_FENCE }] },
      ],
    },
  },
  {
    // React's rules of hooks, and every value an effect, memo or callback reads in its dependencies.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // bulletproof-react: kebab-case file names (`use-post-upload.ts`, `messages.queries.ts`). Route
    // files keep TanStack Router's names ($param, _layout, __root, dots for nesting) and migrations
    // their timestamps.
    files: ['**/*.{js,ts,tsx}'],
    ignores: ['src/routes/**', 'migrations/**'],
    plugins: { 'check-file': checkFile },
    rules: { 'check-file/filename-naming-convention': ['error', { '**/*.{js,ts,tsx}': 'KEBAB_CASE' }, { ignoreMiddleExtensions: true }] },
  },
  {
    // One naming for the client's React Query modules: `<name>-queries.ts` holds the options a
    // route's loader and its component share (input, cache times, paging), `<name>-cache.ts` the
    // functions that read or patch cached data (docs/adding-a-feature.md).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-blocklist': [
        'error',
        { '**/*-query.ts': '*-queries.ts', '**/*-query-options.ts': '*-queries.ts', '**/*-caches.ts': '*-cache.ts' },
      ],
    },
  },
);
