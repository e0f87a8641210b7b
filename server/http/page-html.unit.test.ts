import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FIRST_DATA_ELEMENT_ID } from '../../common/first-data';
import { BOOT_BATCH, parseTemplate, renderPage } from './page-html';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The platform" />
    <title>CreatorHub</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="modulepreload" crossorigin href="/assets/router-1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

const page = parseTemplate(TEMPLATE);
const head = { title: 'Ava', description: 'Ava paints', noindex: false, canonical: null, og: {}, twitter: {} };
const lead = { src: '/media/p1/web', srcSet: '/media/p1/thumb 320w, /media/p1/web 1080w', sizes: '100vw' };
const at = (html: string, needle: string) => html.indexOf(needle);

describe('the page head', () => {
  it('asks for the styles and the largest picture before any script, once each', () => {
    const html = renderPage(page, head, { state: '{}', leadImage: lead }, ['/assets/post-1.js']);
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(at(html, 'rel="stylesheet"')).toBeLessThan(at(html, '<script type="module"'));
    expect(at(html, 'rel="preload" as="image"')).toBeLessThan(at(html, '<script type="module"'));
    expect(at(html, '<script type="module"')).toBeLessThan(at(html, '/assets/react-1.js'));
    expect(at(html, '/assets/post-1.js')).toBeGreaterThan(at(html, '/assets/router-1.js'));
    expect(at(html, '<script type="module"')).toBeLessThan(at(html, '</head>'));
  });

  it('keeps the largest picture in a template without scripts', () => {
    const bare = parseTemplate(TEMPLATE.replace(/\s*<(script|link rel="modulepreload")[^>]*>(<\/script>)?/g, ''));
    const html = renderPage(bare, head, { state: '{}', leadImage: lead }, [], '<h1>Ava</h1>', 'n0nce');
    expect(html).toContain('rel="preload" as="image"');
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script (type="module"|nonce)/);
  });
});

describe('a server-rendered page', () => {
  const html = renderPage(page, head, { state: '{"a":1}', leadImage: lead }, ['/assets/post-1.js'], '<h1>Ava</h1>', 'n0nce');
  const boot = /<script nonce="n0nce">([^<]*)<\/script>/.exec(html);

  it('asks for no script before its markup and data', () => {
    expect(html).toContain('<div id="root"><h1>Ava</h1></div><script type="application/json"');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(at(html, 'rel="stylesheet"')).toBeLessThan(at(html, '</head>'));
  });

  it('loads the entry and every module it and the route need once painted, with the response nonce', () => {
    expect(boot).not.toBeNull();
    expect(at(html, '<script nonce')).toBeGreaterThan(at(html, `id="${FIRST_DATA_ELEMENT_ID}"`));
    const script = boot![1]!;
    expect(script).toContain('requestAnimationFrame');
    for (const url of ['/assets/index-1.js', '/assets/react-1.js', '/assets/router-1.js', '/assets/post-1.js']) expect(script).toContain(`"${url}"`);
  });

  it('adds the modules a few per task, so no task of its own blocks a slow phone for long', () => {
    const routeModules = Array.from({ length: 3 * BOOT_BATCH }, (_, i) => `/assets/route-${i}.js`);
    const big = renderPage(page, head, { state: '{}', leadImage: lead }, routeModules, '<h1>Ava</h1>', 'n0nce');
    const script = /<script nonce="n0nce">([^<]*)<\/script>/.exec(big)![1]!;
    // a browser's document, frame and timers: each task records what it added to the head
    const tasks: string[][] = [];
    const queue: (() => void)[] = [];
    const docHead = { appendChild: (el: { href?: string; src?: string }) => tasks.at(-1)!.push(el.href ?? `script ${el.src}`) };
    const run = (fn: () => void) => queue.push(() => (tasks.push([]), fn()));
    runInNewContext(script, {
      document: { head: docHead, visibilityState: 'visible', createElement: () => ({}) },
      requestAnimationFrame: run,
      setTimeout: run,
    });
    while (queue.length) queue.shift()!();
    const added = tasks.flat();
    const modules = [...page.preloads, ...routeModules];
    expect(added).toEqual([...modules.slice(0, BOOT_BATCH), 'script /assets/index-1.js', ...modules.slice(BOOT_BATCH)]);
    expect(Math.max(...tasks.map((t) => t.length))).toBeLessThanOrEqual(BOOT_BATCH + 1);
  });

  it('renders in the browser, scripts in the head, without a nonce', () => {
    const plain = renderPage(page, head, { state: '{}', leadImage: lead }, [], '<h1>Ava</h1>');
    expect(at(plain, '<script type="module"')).toBeLessThan(at(plain, '</head>'));
    expect(plain).not.toContain('<script nonce');
  });
});
