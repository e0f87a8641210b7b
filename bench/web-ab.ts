/**
 * A/B of the web vitals on a machine other sessions load: two copies of the app on the same
 * seeded database (two builds, or one build with SERVER_RENDER=false on one side), audited
 * alternately page by page with bench/web.ts's Lighthouse settings, so both sides see the same
 * load. One JSON line per audit, then each side's median per page and figure. Usage (both copies
 * already running; the demo's pages are /, /ava and /post/<ava's newest free picture post>):
 *   node --import tsx bench/web-ab.ts <A url> <B url> <rounds> <path>...
 */
import { loadavg } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';

const [a, b, roundsText, ...paths] = process.argv.slice(2);
const rounds = Number(roundsText ?? 3);
const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'] });

interface Audits {
  categories: { performance: { score: number } };
  runtimeError?: { code: string; message: string };
  audits: Record<string, { numericValue?: number }>;
}

type Audit = { perf: number; fcp: number; lcp: number; tbt: number; cls: number; error?: string };

async function audit(url: string): Promise<Audit> {
  const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
  const lhr = (await lighthouse(url, flags))!.lhr as unknown as Audits;
  const n = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return { perf: Math.round(lhr.categories.performance.score * 100), fcp: Math.round(n('first-contentful-paint')), lcp: Math.round(n('largest-contentful-paint')), tbt: Math.round(n('total-blocking-time')), cls: n('cumulative-layout-shift'), error: lhr.runtimeError?.code };
}

const seen = new Map<string, Audit[]>();
try {
  for (let round = 1; round <= rounds; round++) {
    for (const path of paths) {
      for (const [side, base] of [['A', a], ['B', b]] as const) {
        const load = loadavg()[0]!.toFixed(1);
        const r = await audit(`${base}${path}`);
        console.log(JSON.stringify({ round, side, path, load, ...r }));
        const key = `${side} ${path}`;
        seen.set(key, [...(seen.get(key) ?? []), r]);
      }
    }
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)];
  for (const [key, audits] of seen) {
    // an audit Lighthouse could not complete (runtimeError) has no figures: left out of the medians
    const done = audits.filter((x) => !x.error);
    const m = (k: Exclude<keyof Audit, 'error'>) => median(done.map((x) => x[k]));
    console.log(`median ${key}: perf ${m('perf')}, TBT ${m('tbt')} ms, LCP ${m('lcp')} ms, FCP ${m('fcp')} ms, CLS ${m('cls')} (${done.length} runs${done.length < audits.length ? `, ${audits.length - done.length} failed` : ''})`);
  }
} finally {
  await chrome.kill();
}
