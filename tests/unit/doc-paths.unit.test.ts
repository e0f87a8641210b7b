import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs are the design of record (issue 48, item 4): a path they name must exist in the
 * repository, and none may point outside it (whoever clones the repository cannot read that).
 */

const ROOT = resolve(__dirname, '../..');
const TOP_DIRS = ['src', 'server', 'worker', 'core', 'domain', 'common', 'migrations', 'tests', 'scripts', 'bench', 'docs', '.ci'];
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** A code span that names a file or folder of ours: starts at a top folder, no placeholders or globs. */
const PATH_LIKE = new RegExp(`^(?:${TOP_DIRS.map((d) => d.replace('.', '\\.')).join('|')})/[\\w./$@-]*$`);

function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  return spans
    .map((span) => span.replace(/[),.;:]+$/, '').replace(/#.*$/, ''))
    .filter((span) => PATH_LIKE.test(span))
    // 'server/features/<feature>/' and similar are patterns, not paths
    .filter((span) => !/[<>*{}]/.test(span));
}

function linkedPaths(doc: string, text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.replace(/#.*$/, ''))
    .filter((target) => target && !/^[a-z]+:/i.test(target))
    .map((target) => join(dirname(doc), target));
}

describe('the docs', () => {
  for (const doc of DOCS) {
    const text = readFileSync(join(ROOT, doc), 'utf8');

    it(`${doc}: every path it names exists in the repository`, () => {
      // a folder may be named with or without its slash; a file as written
      const missing = namedPaths(text).filter((path) => !existsSync(join(ROOT, path)));
      expect(missing).toEqual([]);
    });

    it(`${doc}: every link leads to a file in the repository`, () => {
      const links = linkedPaths(doc, text);
      const outside = links.filter((path) => path.startsWith('..'));
      expect(outside).toEqual([]);
      expect(links.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    });

    it(`${doc}: points nowhere outside the repository`, () => {
      expect(text.match(/\.\.\/shared\/[\w./-]*/g) ?? []).toEqual([]);
    });
  }
});
