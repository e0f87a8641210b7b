import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The code of the server, the workers and the rules they share. */
const FOLDERS = ['core', 'domain', 'server', 'worker'];

/** The provider implementations: the only code that knows which provider is which. */
const IMPLEMENTATIONS = 'core/payments/';

/** Comparisons allowed outside the implementations, keyed by file and expression: none today. */
const KNOWN = new Set<string>();

const NAMES = /^(stripe|builtin)$/;
const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
/** the comparison operators of a query builder's where(column, operator, value) */
const SQL_OPERATORS = new Set(['=', '==', '!=', '<>', 'is', 'is not', 'in', 'not in']);
/** a provider name compared in SQL text: provider = 'stripe', <> 'builtin', in ('stripe') */
const SQL_TEXT = /(=|<>|\bin\b)\s*\(?\s*'(stripe|builtin)'/i;

function sources(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.(test|spec)\.tsx?$/.test(f))
    .map((f) => `${folder}/${f}`)
    .filter((f) => !f.startsWith(IMPLEMENTATIONS));
}

const bare = (node: ts.Node): ts.Node => (ts.isParenthesizedExpression(node) ? bare(node.expression) : node);
const isName = (node: ts.Node): boolean => {
  const n = bare(node);
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return NAMES.test(n.text);
  return ts.isArrayLiteralExpression(n) && n.elements.some(isName);
};
const isSqlOperator = (node: ts.Node) => ts.isStringLiteral(node) && SQL_OPERATORS.has(node.text.toLowerCase());

/** Provider names compared in `text`, as "file: expression" (the key of KNOWN) with their line. */
function nameComparisons(file: string, text: string): { site: string; key: string }[] {
  if (!/stripe|builtin/.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { site: string; key: string }[] = [];
  const report = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ site: `${file}:${line}: ${node.getText().slice(0, 120)}`, key: `${file}: ${node.getText()}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind) && (isName(node.left) || isName(node.right))) report(node);
    else if (ts.isCaseClause(node) && isName(node.expression)) report(node.expression);
    else if (ts.isCallExpression(node) && node.arguments.some(isSqlOperator) && node.arguments.some(isName)) report(node);
    else if ((ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) && SQL_TEXT.test(node.getText())) report(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('billing code asks a provider what it does, not which one it is', () => {
  it("compares no provider name with 'stripe' or 'builtin' outside core/payments (use renewsItself, isTest, flow)", () => {
    const sites = FOLDERS.flatMap(sources).flatMap((file) => nameComparisons(file, readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(sites.filter((s) => !KNOWN.has(s.key)).map((s) => s.site)).toEqual([]);
  });

  it('finds each form of comparison it refuses', () => {
    const code = [
      "if (provider.name === 'stripe') go();",
      "const test = 'builtin' !== row.provider;",
      "switch (name) { case 'stripe': break; }",
      "db.selectFrom('subscriptions').where('subscriptions.provider', '<>', 'stripe');",
      "db.selectFrom('subscriptions').where('provider', 'in', ['builtin']);",
      "const q = sql`select 1 where provider = 'stripe'`;",
      // not comparisons: a default value, a type, a lookup by a row's name
      "const provider = row.provider ?? 'builtin';",
      "type Name = 'builtin' | 'stripe';",
      'providerNamed(deps.payments, row.provider);',
    ].join('\n');
    expect(nameComparisons('domain/example.ts', code).map((s) => s.site)).toEqual([
      "domain/example.ts:1: provider.name === 'stripe'",
      "domain/example.ts:2: 'builtin' !== row.provider",
      "domain/example.ts:3: 'stripe'",
      "domain/example.ts:4: db.selectFrom('subscriptions').where('subscriptions.provider', '<>', 'stripe')",
      "domain/example.ts:5: db.selectFrom('subscriptions').where('provider', 'in', ['builtin'])",
      "domain/example.ts:6: `select 1 where provider = 'stripe'`",
    ]);
  });

  it('keeps its list of known comparisons true: each still exists', () => {
    const keys = new Set(FOLDERS.flatMap(sources).flatMap((file) => nameComparisons(file, readFileSync(path.join(repoRoot, file), 'utf8')).map((s) => s.key)));
    expect([...KNOWN].filter((k) => !keys.has(k))).toEqual([]);
  });
});
