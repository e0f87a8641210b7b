// The card's drawing, in a thread of its own (card-raster.ts starts it and sends the font files
// as workerData). Plain JavaScript: a thread does not inherit the server's TypeScript loader.
//
// satori's layout and text shaping (JavaScript and WebAssembly; its first call parses the fonts
// and starts its WebAssembly, some 400 ms of CPU) and resvg's rasterising (150-500 ms of CPU for
// 1200x630) would otherwise hold every other request up. One message in: { id, tree }; one out:
// { id, png, layoutMs, rasterMs } or { id, error }.
import { Resvg } from '@resvg/resvg-js';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import satori from 'satori';

const { width, height, fontFiles } = workerData;
const fonts = fontFiles.map((f) => ({ name: f.name, weight: f.weight, style: 'normal', data: readFileSync(f.path) }));

parentPort.on('message', async ({ id, tree }) => {
  try {
    const started = performance.now();
    const svg = await satori(tree, { width, height, fonts });
    const laidOut = performance.now();
    // the card's pictures are data: URIs; nothing is read from a file or the network
    const png = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
    parentPort.postMessage({ id, png, layoutMs: laidOut - started, rasterMs: performance.now() - laidOut });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
