import type { Page } from '@playwright/test';
import type { AxeResults, Result, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_A_AA = ['wcag2a', 'wcag2aa'];
export const WCAG_21_AA = [...WCAG_A_AA, 'wcag21a', 'wcag21aa'];

/**
 * axe-core's serious and critical violations of the rules with these tags, on the page as it is
 * now or within `include` (a selector). axe is put in a document once and run there as often as
 * asked: @axe-core/playwright's analyze() put it in twice for every scan (half a second on these
 * machines, more than most scans themselves), and the app has no frames for it to reach into.
 */
export async function seriousViolations(page: Page, tags: string[], include?: string): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // only violations are detailed: for the rules that pass, axe then describes one node instead of every one
  const options: RunOptions = { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] };
  const violations = await page.evaluate(
    ({ include, options }) => {
      const { axe } = window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } };
      return axe.run(include ?? document, options).then((results) => results.violations);
    },
    { include, options },
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line an offending element: the rule and the element. */
export const violationLines = (violations: Result[]): string[] => violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
