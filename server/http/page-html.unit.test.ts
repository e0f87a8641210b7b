import { describe, expect, it } from 'vitest';
import { renderPage } from './page-html';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>CreatorHub</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="modulepreload" crossorigin href="/assets/router-1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

const head = { title: 'Ava', description: 'Ava paints', noindex: false, canonical: null, og: {}, twitter: {} };
const lead = { src: '/media/p1/web', srcSet: '/media/p1/thumb 320w, /media/p1/web 1080w', sizes: '100vw' };

describe('the page head', () => {
  it('asks for the styles and the largest picture before any script, once each', () => {
    const html = renderPage(TEMPLATE, head, { state: '{}', leadImage: lead }, ['/assets/post-1.js'], '<h1>Ava</h1>');
    const at = (needle: string) => html.indexOf(needle);
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
    expect(at('rel="stylesheet"')).toBeLessThan(at('<script type="module"'));
    expect(at('rel="preload" as="image"')).toBeLessThan(at('<script type="module"'));
    expect(at('<script type="module"')).toBeLessThan(at('/assets/react-1.js'));
    expect(at('/assets/post-1.js')).toBeGreaterThan(at('/assets/router-1.js'));
    expect(html).toContain('<div id="root"><h1>Ava</h1></div>');
  });

  it('keeps the largest picture in a template without scripts', () => {
    const html = renderPage(TEMPLATE.replace(/\s*<(script|link rel="modulepreload")[^>]*>(<\/script>)?/g, ''), head, { state: '{}', leadImage: lead });
    expect(html).toContain('rel="preload" as="image"');
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
  });
});
