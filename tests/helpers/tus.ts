/**
 * The tus protocol by hand (what tus-js-client does in the browser), over real HTTP with a test
 * client's cookies and Origin: create with POST (Upload-Length + Upload-Metadata), send chunks
 * with PATCH at Upload-Offset, ask where it stands with HEAD.
 */
import { toUploadMetadata, UPLOAD_POST_ID_HEADER, type UploadPostFields } from '../../common/uploads';
import type { TestClient } from './test-server';

export const TUS_HEADERS = { 'Tus-Resumable': '1.0.0' } as const;

/** Upload-Metadata: comma-separated `key base64(value)` pairs. */
export function encodeMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

export function uploadFields(filename: string, extra: Partial<UploadPostFields> = {}): UploadPostFields {
  return { filename, isPaidContent: false, isNsfw: false, status: 'published', ...extra };
}

export async function tusCreate(client: TestClient, size: number, fields: UploadPostFields | Record<string, string>): Promise<Response> {
  const meta = 'isPaidContent' in fields && typeof fields.isPaidContent === 'boolean' ? toUploadMetadata(fields as UploadPostFields) : (fields as Record<string, string>);
  return client.fetch('/uploads', {
    method: 'POST',
    headers: { ...TUS_HEADERS, 'Upload-Length': String(size), 'Upload-Metadata': encodeMetadata(meta) },
  });
}

export function tusPatch(client: TestClient, location: string, offset: number, chunk: Uint8Array): Promise<Response> {
  return client.fetch(location, {
    method: 'PATCH',
    headers: { ...TUS_HEADERS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(chunk),
  });
}

export function tusHead(client: TestClient, location: string): Promise<Response> {
  return client.fetch(location, { method: 'HEAD', headers: TUS_HEADERS });
}

export interface UploadResult {
  location: string;
  postId: string;
  responses: Response[];
}

/** A whole upload: create, then PATCH `chunkSize` bytes at a time; fails loudly on any refusal. */
export async function tusUpload(client: TestClient, bytes: Uint8Array, fields: UploadPostFields, opts: { chunkSize?: number } = {}): Promise<UploadResult> {
  const created = await tusCreate(client, bytes.length, fields);
  if (created.status !== 201) throw new Error(`tus create answered ${created.status}: ${await created.text()}`);
  const location = created.headers.get('location')!;
  const chunkSize = opts.chunkSize ?? 1024 * 1024;
  const responses: Response[] = [created];
  let offset = 0;
  let last = created;
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset, offset + chunkSize);
    last = await tusPatch(client, location, offset, chunk);
    responses.push(last);
    if (last.status !== 204) throw new Error(`tus PATCH at ${offset} answered ${last.status}: ${await last.text()}`);
    offset = Number(last.headers.get('upload-offset'));
  }
  const postId = last.headers.get(UPLOAD_POST_ID_HEADER);
  if (!postId) throw new Error('the last PATCH carried no Upload-Post-Id');
  return { location, postId, responses };
}

/** Polls `check` until it returns something truthy (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, label = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
