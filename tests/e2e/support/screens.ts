import type { Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imagesSettled } from './app';

/** Where the specs' screenshots go (SHOTS_DIR, else tests/.artifacts/screens). */
export const SCREENS_DIR = process.env.SHOTS_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.artifacts/screens');

/** The whole page at 1280 and 375 px, once its pictures have settled, as `<name>-<width>.png`; back to 1280 after. */
export async function shootWidths(page: Page, name: string): Promise<void> {
  await mkdir(SCREENS_DIR, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await imagesSettled(page);
    await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
