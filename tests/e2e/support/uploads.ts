import { expect, type Page, type Request, type Response } from '@playwright/test';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { UPLOAD_POST_ID_HEADER } from '../../../common/uploads';

/**
 * Helpers of the upload journeys (create.spec.ts): fixture files on disk (a path keeps its
 * modification time, which the browser's resume fingerprint includes), the upload form's
 * controls, the tus requests seen by the page, and the served media.
 */

export async function fixtureDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'create-e2e-'));
}

export async function writeFixture(dir: string, name: string, bytes: Buffer | Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

export const form = (page: Page) => page.getByRole('form', { name: 'New post' });
export const fileInput = (page: Page) => page.getByLabel('Choose a file');
export const publishButton = (page: Page) => page.getByRole('button', { name: 'Publish', exact: true });
export const draftButton = (page: Page) => page.getByRole('button', { name: 'Save as Draft', exact: true });
export const progressBar = (page: Page) => page.getByRole('progressbar', { name: 'Upload progress' });
export const yourUploads = (page: Page) => page.getByRole('region', { name: 'Your uploads' });

export const isTusPatch = (request: Request) => request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith('/uploads/');

/** The response of the PATCH that completed an upload: its `Upload-Post-Id` is the new post's id. */
export function waitForUploadedPostId(page: Page, timeout = 60_000): Promise<string> {
  return page
    .waitForResponse((response: Response) => isTusPatch(response.request()) && !!response.headers()[UPLOAD_POST_ID_HEADER.toLowerCase()], { timeout })
    .then((response) => response.headers()[UPLOAD_POST_ID_HEADER.toLowerCase()]!);
}

/** A stored media variant of a post, as the user of `page` may fetch it. */
export async function fetchMedia(page: Page, postId: string, variant: string): Promise<Buffer> {
  const response = await page.request.get(`/media/${postId}/${variant}`);
  expect(response.status(), `/media/${postId}/${variant}`).toBe(200);
  return Buffer.from(await response.body());
}

/**
 * The share (0-1) of a region's pixels that stand out from the picture's flat background colour
 * (its top-left pixel) by more than `threshold` in some channel: 0 where nothing was drawn.
 */
export async function markedShare(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
  threshold = 24,
): Promise<number> {
  const reference = await sharp(image).extract({ left: 0, top: 0, width: 1, height: 1 }).removeAlpha().raw().toBuffer();
  const { data, info } = await sharp(image).extract(region).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let marked = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    for (let c = 0; c < info.channels; c++) {
      if (Math.abs(data[i + c]! - reference[c]!) > threshold) {
        marked += 1;
        break;
      }
    }
  }
  return marked / (data.length / info.channels);
}

/** The tus addresses the page keeps for resuming (tus-js-client's localStorage entries). */
export async function storedUploadUrls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('tus::'))
      .map((key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { uploadUrl?: string }).uploadUrl ?? '')
      .filter(Boolean),
  );
}

/** How many bytes of an upload the server has (tus HEAD), as the user of `page`. */
export async function serverOffset(page: Page, uploadUrl: string): Promise<number> {
  const response = await page.request.fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  expect(response.status()).toBe(200);
  return Number(response.headers()['upload-offset']);
}
