/**
 * A/B of the web vitals on a machine other sessions load: two copies of the same build, one
 * with SERVER_RENDER=false (A: the browser renders from the first data) and one with it on (B),
 * audited alternately page by page with bench/web.ts's Lighthouse settings, so both sides see
 * the same load. Usage (both copies already running):
 *   node --import tsx bench/web-ab.ts <A url> <B url> <rounds> <path>...
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';

const [a, b, roundsText, ...paths] = process.argv.slice(2);
const rounds = Number(roundsText ?? 3);
const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'] });

interface Audits {
  categories: { performance: { score: number } };
  audits: Record<string, { numericValue?: number }>;
}

async function audit(url: string): Promise<{ perf: number; fcp: number; lcp: number; tbt: number; cls: number }> {
  const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
  const lhr = (await lighthouse(url, flags))!.lhr as unknown as Audits;
  const n = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return { perf: Math.round(lhr.categories.performance.score * 100), fcp: Math.round(n('first-contentful-paint')), lcp: Math.round(n('largest-contentful-paint')), tbt: Math.round(n('total-blocking-time')), cls: n('cumulative-layout-shift') };
}

try {
  for (let round = 1; round <= rounds; round++) {
    for (const path of paths) {
      for (const [side, base] of [['A', a], ['B', b]] as const) {
        const r = await audit(`${base}${path}`);
        console.log(JSON.stringify({ round, side, path, ...r }));
      }
    }
  }
} finally {
  await chrome.kill();
}
