import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTempPrefix, mediaTempPrefix, sweepStaleMediaTempDirs } from './temp-dirs';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'temp-dirs-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('sweepStaleMediaTempDirs', () => {
  it("removes the folders of workers that are gone and leaves live workers' alone", async () => {
    // a process that ran and ended: its pid names nobody now
    const deadPid = spawnSync('true').pid!;
    const make = async (name: string, ageMs = 0) => {
      const full = path.join(dir, name);
      await mkdir(full);
      if (ageMs) await utimes(full, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
      return full;
    };
    const dead = await make(`media-w${deadPid}-post-abc123`);
    const own = await make(`${mediaTempPrefix('post')}def456`);
    const parent = await make(`media-w${process.ppid}-post-ghi789`);
    const ancient = await make(`media-w${process.ppid}-post-jkl012`, 25 * 3_600_000);
    const unownedOld = await make('media-0b6e-post-mno345', 2 * 3_600_000);
    const unownedNew = await make('media-0b6e-post-pqr678');
    const other = await make('something-else');

    const removed = await sweepStaleMediaTempDirs(dir);
    expect(removed.sort()).toEqual([dead, ancient, unownedOld].map((d) => path.basename(d)).sort());
    for (const kept of [own, parent, unownedNew, other]) expect(existsSync(kept)).toBe(true);
  });

  it("removes a killed export's partial zip folder, not a running export's", async () => {
    const deadPid = spawnSync('true').pid!;
    const partial = path.join(dir, `export-w${deadPid}-0f1e2d3c-abc123`);
    const running = path.join(dir, `${exportTempPrefix('0f1e2d3c')}def456`);
    await mkdir(partial);
    await mkdir(running);
    const removed = await sweepStaleMediaTempDirs(dir);
    expect(removed).toEqual([path.basename(partial)]);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });
});
