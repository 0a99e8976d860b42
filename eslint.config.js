// Lint the TypeScript sources with type information, so that floating promises are caught.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.tools/**', 'test/fixtures/**', 'scripts/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  ...importRules(),
  // tui/README.md: the client serves both front-ends; neither front-end imports the other
  // (`svc ui` loads the dashboard with a dynamic import, which this rule does not see).
  ...[
    ['tui/client/**', ['**/cli/**', '**/dashboard/**'], 'tui/client/ is shared: it imports neither the CLI nor the dashboard'],
    ['tui/dashboard/**', ['**/cli/**'], 'the dashboard talks to svcd through tui/client/, never through the CLI'],
    ['tui/cli/**', ['**/dashboard/**'], 'the CLI loads the dashboard only from commands/ui.ts, with a dynamic import'],
  ].map(([files, group, message]) => ({ files: [files], rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] } })),
);

/**
 * Who may import whom (docs/architecture.md). Each folder lists the folders of ours it must not
 * import; a rule with `types` still allows `import type` (shapes shared across a boundary).
 */
function importRules() {
  const ours = (folders) => `^(\\.\\./)+(${folders.join('|')})/`;
  const rule = (files, forbidden, typesOnly = [], extra = []) => ({
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: ours(forbidden), message: 'crosses an architecture boundary (docs/architecture.md, "Who may import whom")' },
            ...(typesOnly.length ? [{ regex: ours(typesOnly), allowTypeImports: true, message: 'only `import type` across this boundary' }] : []),
            ...extra,
          ],
        },
      ],
    },
  });
  return [
    rule(['reconciler/**/*.ts'], ['api', 'bin', 'controllers', 'state', 'stacks', 'tui', 'operations', 'log-files', 'observers', 'conf', 'plugins']),
    rule(['state/**/*.ts'], ['api', 'bin', 'controllers', 'reconciler', 'stacks', 'tui', 'operations', 'log-files', 'observers', 'plugins'], ['conf']),
    rule(['stacks/**/*.ts'], ['api', 'bin', 'controllers', 'reconciler', 'tui', 'operations', 'log-files', 'observers', 'plugins']),
    rule(['operations/**/*.ts'], ['api', 'bin', 'controllers', 'reconciler', 'tui', 'observers', 'stacks']),
    rule(['log-files/**/*.ts'], ['api', 'bin', 'controllers', 'tui', 'operations', 'stacks', 'observers'], ['reconciler']),
    rule(['observers/**/*.ts'], ['api', 'bin', 'tui', 'operations', 'stacks'], ['reconciler']),
    rule(['controllers/**/*.ts'], ['api', 'bin', 'tui', 'operations', 'stacks', 'observers']),
    rule(['api/**/*.ts'], ['bin', 'controllers', 'tui', 'observers'], ['reconciler']),
    // The terminal talks HTTP; its offline tools read local files: `svc check` (stacks, schema),
    // `svc license keygen|issue|inspect` (plugins/license), `svc audit --verify` (the audit log) and
    // `svc notify check|apply` (plugins/notify/config, the notify.toml checker).
    rule(['tui/**/*.ts', 'tui/**/*.tsx'], ['bin', 'controllers', 'reconciler', 'observers', 'log-files'], ['operations', 'api'], [
      { regex: '^(\\.\\./)+plugins/(?!license/|security/audit/|notify/config/)', message: 'the CLI reaches plugins through the daemon, except its offline tools' },
    ]),
  ];
}
