import js from '@eslint/js';
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
);
