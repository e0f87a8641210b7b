import { expect, type APIRequestContext } from '@playwright/test';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER } from '../../../common/uploads';
import { flatPng } from '../../helpers/media-fixtures';
import { encodeMetadata } from '../../helpers/tus';
import { e2eBaseURL } from './app';

/**
 * Publishes a small flat picture as the user of `request` through tus in one request, as the
 * browser would; resolves with the new post's id (the worker still has to process it).
 */
export async function publishPicture(request: APIRequestContext, name: string, text: string, colour = '#3b6ea5', [width, height] = [64, 64]): Promise<string> {
  const bytes = await flatPng(width, height, colour);
  const meta = toUploadMetadata({ filename: name, filetype: 'image/png', postText: text, isPaidContent: false, isNsfw: false, status: 'published' });
  const response = await request.post('/uploads', {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': encodeMetadata(meta),
      'Content-Type': 'application/offset+octet-stream',
      origin: e2eBaseURL(),
    },
    data: bytes,
  });
  expect(response.status(), await response.text()).toBe(201);
  const postId = response.headers()[UPLOAD_POST_ID_HEADER.toLowerCase()];
  expect(postId).toBeTruthy();
  return postId!;
}
