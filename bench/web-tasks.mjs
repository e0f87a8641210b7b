/* global process, console, URL */
/**
 * What runs on the main thread after the first paint (issue 50 item 1), on a machine other sessions
 * load: Lighthouse's simulated TBT multiplies each task's wall time by 4, and on a shared 2-core
 * machine at load average 15-25 a task's wall time is several times its CPU time (Lighthouse's
 * own benchmark index read 180-1,180 there, about 1,500-2,000 idle). This reads the CPU time instead.
 *
 *   node bench/web-tasks.mjs <page url> <the build's DIST_DIR (source maps)> [runs]
 *
 * A phone-sized page (412x823 at 1.75x) loads unthrottled with a Chromium trace (timeline and the
 * V8 sampler). Every main-thread task after the first contentful paint whose CPU time (the trace's
 * thread duration) times 4 exceeds 50 ms is printed with the JavaScript that ran in it, mapped to
 * the sources through the build's source maps (the nearest src/ or common/ frame, else the
 * package), and the sum of (4 x CPU - 50 ms) over them: a stand-in for TBT that load moves far
 * less than the wall clock, for comparing two builds; not Lighthouse's figure.
 *
 * A task's JavaScript is named by its nearest app frame, else by React's phase it ran in
 * (`react-dom:commitHostUpdate`, `react-dom:workLoopSync`: a synchronous render) and the package
 * under it. WEB_TASKS_SELF=1 adds each long task's self time by function. CPU_THROTTLE=4 slows the
 * page's CPU through CDP as DevTools does (the x4 figures then count the slowdown twice: read the
 * task list, not the sum). Sampled names are wall time: on a loaded machine a function can collect
 * samples while the thread waits for a core; the task's CPU time is the figure to compare.
 */
import { chromium } from 'playwright';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
const [url, distDir, runsText] = process.argv.slice(2);
const consumers = new Map();
function origin(f) {
  if (!f.url) return f.functionName || '(native)';
  let c = consumers.get(f.url);
  if (c === undefined) { c = null; try { const mf = path.join(distDir, new URL(f.url).pathname + '.map'); if (existsSync(mf)) c = new SourceMapConsumer(JSON.parse(readFileSync(mf, 'utf8'))); } catch {} consumers.set(f.url, c); }
  if (!c) return `${new URL(f.url).pathname}`;
  const p = c.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  const src = (p.source ?? '?').replace(/^.*node_modules\//, 'nm:').replace(/^(\.\.\/)+/, '').replace(/^.*?\/((src|common|domain)\/)/, '$1');
  return `${src}:${p.name || f.functionName || '?'}`;
}
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const totals = [];
for (let run = 0; run < Number(runsText ?? 1); run++) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const throttle = Number(process.env.CPU_THROTTLE ?? 1);
  if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'loading'] });
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForTimeout(5000);
  const buf = await browser.stopTracing();
  await context.close();
  const ev = JSON.parse(buf.toString()).traceEvents;
  const mains = new Set(ev.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const fcpEv = ev.filter((e) => e.name === 'firstContentfulPaint').sort((a, b) => a.ts - b.ts)[0];
  const navEv = ev.filter((e) => e.name === 'navigationStart' && mains.has(`${e.pid}:${e.tid}`)).sort((a, b) => b.ts - a.ts).find((e) => !fcpEv || e.ts <= fcpEv.ts);
  const key = `${fcpEv.pid}:${fcpEv.tid}`;
  const tasks = ev.filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === key && e.ts >= fcpEv.ts).sort((a, b) => a.ts - b.ts);
  // samples from ProfileChunk events of that thread
  const nodes = new Map(), parent = new Map(), samples = [];
  const chunks = ev.filter((e) => (e.name === 'ProfileChunk' || e.name === 'Profile') && e.pid === fcpEv.pid);
  let startTs = null;
  for (const c of chunks.sort((a, b) => a.ts - b.ts)) {
    if (c.name === 'Profile') { startTs = c.args.data.startTime; continue; }
    const d = c.args.data;
    for (const n of d.cpuProfile?.nodes ?? []) { nodes.set(n.id, n); if (n.parent) parent.set(n.id, n.parent); }
    let t = samples.length ? samples[samples.length - 1].t : startTs;
    (d.cpuProfile?.samples ?? []).forEach((id, i) => { t += d.timeDeltas[i]; samples.push({ id, t }); });
  }
  const label = new Map();
  const labelOf = (id) => {
    if (label.has(id)) return label.get(id);
    let x = id, app = null; const top = origin(nodes.get(id).callFrame);
    while (x !== undefined && nodes.get(x)) { const o = origin(nodes.get(x).callFrame); if (/^(src|common|domain)\//.test(o)) { app = o; break; } x = parent.get(x); }
    let phase = null;
    if (!app) { let y = id; while (y !== undefined && nodes.get(y)) { const o = origin(nodes.get(y).callFrame); const m = /^nm:(react-dom|scheduler)\/.*:((commit|flushPassive|renderRoot|workLoop|hydrate|performWorkOnRoot|flushSync)\w*)$/.exec(o); if (m) { phase = `${m[1]}:${m[2]}`; break; } y = parent.get(y); } }
    const leaf = top.replace(/:[^:]*$/, '');
    const l = app ?? (phase ? (leaf.startsWith('nm:react-dom/') ? phase : `${phase} > ${leaf}`) : leaf); label.set(id, l); return l;
  };
  let tbt = 0; const lines = [];
  for (const t of tasks) {
    const cpu = (t.tdur ?? t.dur) / 1000;
    if (cpu * 4 <= 50) continue;
    tbt += cpu * 4 - 50;
    const by = new Map();
    const inT = samples.filter((s) => s.t >= t.ts && s.t <= t.ts + t.dur);
    for (let i = 0; i < inT.length; i++) { const dt = i + 1 < inT.length ? (inT[i + 1].t - inT[i].t) / 1000 : 0; const l = labelOf(inT[i].id); by.set(l, (by.get(l) ?? 0) + dt); }
    if (process.env.WEB_TASKS_SELF) {
      // self time by function (the sampled frame itself, mapped), and by the app frame or package under it
      const self = new Map();
      for (let i = 0; i < inT.length; i++) { const dt = i + 1 < inT.length ? (inT[i + 1].t - inT[i].t) / 1000 : 0; const o = origin(nodes.get(inT[i].id).callFrame); self.set(o, (self.get(o) ?? 0) + dt); }
      lines.push(`    self: ${[...self].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ')}`);
    }
    lines.push(`  @${((t.ts - navEv.ts) / 1000).toFixed(0)} ms cpu ${cpu.toFixed(1)} (x4 ${(cpu * 4).toFixed(0)}): ${[...by].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ')}`);
  }
  const all = tasks.reduce((a, t) => a + (t.tdur ?? t.dur) / 1000, 0);
  console.log(`run ${run + 1}: FCP ${((fcpEv.ts - navEv.ts) / 1000).toFixed(0)} ms; main-thread CPU after FCP ${all.toFixed(0)} ms; tasks >50 ms at 4x: sum(4*cpu-50) ${tbt.toFixed(0)} ms`);
  console.log(lines.join('\n'));
  totals.push(Math.round(tbt));
}
console.log(`TBT proxy per run: ${totals.join(', ')}`);
await browser.close();
