import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The folders whose code runs on every request: the tRPC and HTTP plumbing, the session, the
 * cards and access rules the lists are made of.
 */
const PER_REQUEST = ['server/trpc', 'server/http', 'server/shared', 'server/auth', 'domain/access', 'domain/people'];

/**
 * Literals that begin with a spread and only replace fields the spread object already has: those
 * are kept by nothing (measured), and these run once per failure or per page, not per read.
 * Keyed by file and the spread's expression.
 */
const REPLACING_ONLY = new Set([
  'server/trpc/express-handler.ts: o', // a failure's report, tRPC's request replaced by Express's
  'server/trpc/init.ts: shape', // the error formatter's message, code and data
  'server/trpc/init.ts: shape.data',
  'server/http/page-html.ts: base', // noindex
  'server/auth/write-budgets.ts: limit', // points
]);

function sources(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => `${folder}/${f}`);
}

/** Every object literal that begins with a spread and has a field after it, as "file:line: spread". */
function spreadFirstLiterals(file: string, text = readFileSync(path.join(repoRoot, file), 'utf8')): { site: string; key: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { site: string; key: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const [first, ...rest] = node.properties;
      if (first && ts.isSpreadAssignment(first) && rest.some((p) => !ts.isSpreadAssignment(p))) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ site: `${file}:${line}: { ...${first.expression.getText()}, … }`, key: `${file}: ${first.expression.getText()}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * On Node 20's V8, an object made as `{ ...source, more: x }` (a spread first, then fields the
 * source lacks) is kept by every minor collection with all it refers to until the next full one:
 * a request's context made that way promoted its request, response and rows, 2.5 MB per minor
 * collection under an empty query's load, and the full collections that followed were the lists'
 * slowest hundredth (docs/performance.md, "Spread objects outlive their request"). A spread
 * placed last, or fields named one by one, is collected young like any other object.
 */
describe('objects made on every request', () => {
  it('do not begin with a spread that more fields follow', () => {
    const offending = PER_REQUEST.flatMap(sources)
      .flatMap((file) => spreadFirstLiterals(file))
      .filter((s) => !REPLACING_ONLY.has(s.key))
      .map((s) => s.site);
    expect(offending, 'name the fields, or put the spread last (see this test)').toEqual([]);
  });

  it('finds such a literal, and only such a literal', () => {
    // the context as it was made before, and as it could be made
    expect(spreadFirstLiterals('server/trpc/init.ts', 'const ctx = { ...deps, req, res };').map((s) => s.site)).toEqual([
      'server/trpc/init.ts:1: { ...deps, … }',
    ]);
    expect(spreadFirstLiterals('server/trpc/init.ts', 'const ctx = { req, res, ...deps }; const copy = { ...deps };')).toEqual([]);
  });
});
