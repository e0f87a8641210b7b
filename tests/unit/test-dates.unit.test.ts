import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Tests that run against a server, a worker or PostgreSQL, all of which read the real time: every
 * integration file (vitest.config.ts's integration projects), the browser specs and the helpers
 * they share. Unit tests call pure functions with the time handed in, and may fix any date.
 */
const REAL_CLOCK_FOLDERS = ['core', 'domain', 'server', 'worker', 'tests/integration', 'tests/e2e', 'tests/helpers'];

function realClockTests(): string[] {
  return REAL_CLOCK_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => !f.includes('node_modules'))
      .filter((f) => (f.endsWith('.test.ts') && !f.endsWith('.unit.test.ts')) || f.endsWith('.spec.ts') || (folder === 'tests/helpers' && f.endsWith('.ts')))
      .map((f) => `${folder}/${f}`),
  );
}

/** A date or month written out ('2026-11-23', '2026-11-23T10:00:00Z', '2026-11'). */
const DATE_TEXT = /^(\d{4})-\d{2}(?:$|[-T ])/;
/**
 * Years before this are let be: a date decades before any run (a date of birth, year 0 refused)
 * only grows older, so no server's "now" ever catches up with it.
 */
const RECENT_YEARS = 2000;
/** An instant in milliseconds since 1970 written out (from 2001 on: 13 digits). */
const EPOCH_MS = /^[1-9]\d{12}$/;
/** The comment that lets one line keep a literal date: what it is, since it is no clock's time. */
const MARKER = 'not a clock:';

/** Every literal date in `text`, as "file:line: literal", unless its line or the one above carries MARKER. */
function literalDates(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
    if (lines[line]?.includes(MARKER) || lines[line - 1]?.includes(MARKER)) return;
    found.push(`${file}:${line + 1}: ${node.getText().slice(0, 80)}`);
  };
  const isRecentYear = (arg: ts.Expression | undefined) => arg !== undefined && ts.isNumericLiteral(arg) && Number(arg.text) >= RECENT_YEARS;
  const isRecentDate = (text: string) => Number(DATE_TEXT.exec(text)?.[1] ?? 0) >= RECENT_YEARS;
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) && isRecentDate(node.text)) report(node);
    if (ts.isNumericLiteral(node) && EPOCH_MS.test(node.text.replaceAll('_', ''))) report(node);
    // Date.UTC(2026, ...) and new Date(2026, 10, 23)
    if (ts.isCallExpression(node) && node.expression.getText() === 'Date.UTC' && isRecentYear(node.arguments[0])) report(node);
    if (ts.isNewExpression(node) && node.expression.getText() === 'Date' && (node.arguments?.length ?? 0) > 1 && isRecentYear(node.arguments?.[0])) report(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * A test that fixes a date and then calls code on the real clock works until that date plus a
 * period has gone by: on 2026-12-06 eight billing tests failed that passed when written, each with
 * subscriptions made on 2026-11-23 by a test's clock and read by a server at the real time.
 * Such tests start their clocks from the real now (tests/helpers/test-clock.ts). A date that is
 * data and no clock's time (a cursor's text, an impossible date refused) says so on its line.
 */
describe('tests on the real clock', () => {
  it('write no date of the calendar: their clocks start from the real now', () => {
    const found = realClockTests().flatMap((file) => literalDates(file, readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(found, `start the clock with clockStart() or nextCalendarDay() from tests/helpers/test-clock.ts, or say on the line "// ${MARKER} <what the date is>"`).toEqual([]);
  });

  it('the check finds the dated clocks that failed, in each way a date can be written, and lets a marked one be', () => {
    const dated = [
      "const T0 = new Date('2026-11-23T10:00:00Z');",
      'const T0 = new Date(Date.UTC(2027, 0, 31, 12, 0, 0));',
      "const clock = fixedClock('2026-10-01T09:00:00Z');",
      'clock.set(new Date(2027, 10, 18));',
      'clock.set(new Date(1_795_000_000_000));',
      "await earnings.statement.query({ month: '2026-11' });",
      'expect(mail).toContain(`${day} until 2026-12-03`) || expect(at).toBe(`2026-12-03T${hour}`);',
    ].join('\n');
    expect(literalDates('sample.test.ts', dated)).toHaveLength(7);
    const fine = [
      'const T0 = clockStart();',
      'const later = new Date(T0.getTime() + 7 * DAY_MS);',
      "// not a clock: a cursor's text that names no real day",
      "const IMPOSSIBLE = ['2026-02-30T10:00:00Z'];",
      "expect(parse('2026-01-01')).toBe(true); // not a clock: a parser's input",
      'const limit = 5_000_000; const big = 20261120;',
      "await signUp({ dateOfBirth: '1990-01-01' }); new Date(Date.UTC(T0.getUTCFullYear(), 3, 30));",
    ].join('\n');
    expect(literalDates('sample.test.ts', fine)).toEqual([]);
  });
});
