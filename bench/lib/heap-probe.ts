/**
 * Loaded into a process the soak measures (`node --expose-gc --import tsx --import
 * ./bench/lib/heap-probe.ts`; the app's own code is unchanged): on SIGUSR2 it runs a full
 * collection and writes the heap still in use to HEAP_PROBE_FILE. The heap read at a random moment
 * holds whatever garbage the last collection left, so a start and an end compared that way tell
 * growth from a heap that has not yet met a full collection only over a much longer run.
 */
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.HEAP_PROBE_FILE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  process.on('SIGUSR2', () => {
    const t0 = performance.now();
    gc();
    const reading = { heapUsed: process.memoryUsage().heapUsed, gcMs: performance.now() - t0 };
    writeFileSync(`${file}.tmp`, JSON.stringify(reading));
    renameSync(`${file}.tmp`, file);
  });
}
