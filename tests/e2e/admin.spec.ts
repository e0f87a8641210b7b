import { expect, test, type APIRequestContext } from '@playwright/test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { e2eBaseURL, newPageAs, trpcQuery } from './support/app';

interface Unfinished {
  postId: string;
  status: 'processing' | 'failed';
  filename: string | null;
  failureReason: string | null;
}

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/** Uploads bytes over tus as the signed-in user of `request` (what tus-js-client does). */
async function tusUpload(request: APIRequestContext, filename: string, bytes: Buffer) {
  const origin = e2eBaseURL();
  const meta = { filename, postText: 'Not really a picture', isPaidContent: 'false', isNsfw: 'false', status: 'published' };
  const created = await request.post('/uploads', {
    headers: {
      origin,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': Object.entries(meta).map(([k, v]) => `${k} ${b64(v)}`).join(','),
    },
  });
  expect(created.status()).toBe(201);
  const location = new URL(created.headers()['location']!, origin).pathname;
  const patched = await request.patch(location, {
    headers: { origin, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: bytes,
  });
  expect(patched.status()).toBe(204);
}

async function failedUpload(request: APIRequestContext, filename: string): Promise<Unfinished> {
  let found: Unfinished | undefined;
  await expect
    .poll(
      async () => {
        const list = await trpcQuery<Unfinished[]>(request, 'uploads.unfinished', undefined);
        found = list.find((p) => p.filename === filename && p.status === 'failed');
        return found?.failureReason ?? null;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
  return found!;
}

test('the queue dashboard: 401 for visitors, 403 for fans, and an admin retries a failed job', async ({ browser }) => {
  const visitor = await newPageAs(browser, null);
  expect((await visitor.goto('/admin/queues'))?.status()).toBe(401);
  await visitor.context().close();

  const fan = await newPageAs(browser, 'fan25');
  expect((await fan.goto('/admin/queues'))?.status()).toBe(403);
  await fan.context().close();

  // A creator uploads an executable renamed .jpg: the worker refuses it by its bytes.
  const creator = await newPageAs(browser, 'leo');
  const filename = `holiday-${Date.now()}.jpg`;
  await tusUpload(creator.request, filename, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 0x90)]));
  const failed = await failedUpload(creator.request, filename);
  expect(failed.failureReason).toMatch(/\S/);

  // What the queue knows of the job before the retry.
  const connection = new Redis({ maxRetriesPerRequest: null });
  const mediaQueue = new Queue('media', { connection, prefix: process.env.E2E_REDIS_PREFIX });
  const jobId = `process-post-${failed.postId}`;
  const before = await mediaQueue.getJob(jobId);
  expect(await before?.getState()).toBe('failed');
  const failedOnBefore = before!.finishedOn!;

  // The admin finds it among the media queue's failed jobs, with its reason, and retries it.
  const admin = await newPageAs(browser, 'admin', { at: `/admin/queues/queue/media?status=failed` });
  await expect(admin.getByText(`process-post-${failed.postId}`)).toBeVisible({ timeout: 15_000 });
  await expect(admin.getByText(failed.failureReason!, { exact: false }).first()).toBeVisible();
  // The job card's first action is Retry (icon buttons; the confirmation below names the action).
  const card = admin
    .locator('div')
    .filter({ hasText: `process-post-${failed.postId}` })
    .filter({ has: admin.locator('button') })
    .last();
  await card.getByRole('button').first().click();
  const confirm = admin.getByRole('alertdialog').or(admin.getByRole('dialog'));
  await expect(confirm).toContainText('Are you sure that you want to retry this job?');
  await confirm.getByRole('button', { name: 'Confirm', exact: true }).click();

  // The retried job ran again (a later finish) and failed again for the same reason; the post says so.
  await expect
    .poll(async () => {
      const job = await mediaQueue.getJob(jobId);
      return job && (await job.getState()) === 'failed' && (job.finishedOn ?? 0) > failedOnBefore;
    })
    .toBe(true);
  await mediaQueue.close();
  connection.disconnect();
  const after = (await trpcQuery<Unfinished[]>(creator.request, 'uploads.unfinished', undefined)).find((p) => p.postId === failed.postId);
  expect(after?.status).toBe('failed');
  expect(after?.failureReason).toBe(failed.failureReason);
  await admin.screenshot({ path: 'tests/.artifacts/admin-queues-1280.png', fullPage: true });
  await admin.context().close();
  await creator.context().close();
});
