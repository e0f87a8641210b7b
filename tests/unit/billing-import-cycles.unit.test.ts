import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * domain/billing's files import one way (issue 45: seven of them imported each other in a circle,
 * so none could be read or changed alone): shared pieces sit in small modules below the ones that
 * use them (effects, reversal-access, refund-requests, billing-deps), never the other way.
 */
const FOLDER = 'domain/billing';

/** Every module a file names: imports and re-exports, type-only ones too, and import() calls and types. */
function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const named: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) named.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) named.push(node.arguments[0].text);
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) named.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return named;
}

/** The folder's files (tests aside) and, for each, the files of the folder it imports. */
function billingGraph(): Map<string, string[]> {
  const files = readdirSync(path.join(repoRoot, FOLDER), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/\.test\.ts$/.test(f))
    .map((f) => path.posix.join(FOLDER, f.split(path.sep).join('/')));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file, readFileSync(path.join(repoRoot, file), 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)))
      .map((target) => [`${target}.ts`, `${target}/index.ts`].find((candidate) => known.has(candidate)))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** A circle for each import that closes one, as its path ('a.ts -> b.ts -> a.ts'); none when the imports go one way. */
function importCycles(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const walk = (file: string) => {
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...trail.slice(trail.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) walk(next);
    }
    trail.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) walk(file);
  return cycles;
}

describe('domain/billing imports one way', () => {
  it('has no circle of imports among its files', () => {
    const graph = billingGraph();
    expect(graph.size).toBeGreaterThan(20);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a circle, however long, and a file that imports itself', () => {
    const graph = new Map([
      ['effects.ts', ['one-off.ts']],
      ['one-off.ts', ['refunds.ts', 'errors.ts']],
      ['refunds.ts', ['effects.ts']],
      ['errors.ts', []],
      ['self.ts', ['self.ts']],
    ]);
    expect(importCycles(graph)).toEqual(['effects.ts -> one-off.ts -> refunds.ts -> effects.ts', 'self.ts -> self.ts']);
  });

  it('reads type-only imports, re-exports and import() as imports', () => {
    const text = [
      "import type { A } from './a';",
      "export { B } from './b';",
      "type C = import('./c').C;",
      "const d = () => import('./d');",
      "import { e } from '../elsewhere/e';",
    ].join('\n');
    expect(importsOf('domain/billing/x.ts', text)).toEqual(['./a', './b', './c', './d', '../elsewhere/e']);
  });
});
