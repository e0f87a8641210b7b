import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import { makeUser } from '../helpers/factories';
import { jobIn } from '../helpers/jobs';
import { jpegWithExif } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';

// Operators: the queue dashboard (Bull Board) and the Prometheus metrics.
let app: TestServer;
let asAdmin: TestClient;
let asUser: TestClient;
let asCreator: TestClient;
const METRICS_TOKEN = 'operators-test-metrics-token-0123456789abcdef';
beforeAll(async () => {
  app = await startTestServer({ env: { METRICS_TOKEN } });
  const admin = await makeUser(app.deps.db);
  await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
  asAdmin = await clientAs(app, admin.id);
  asUser = await clientAs(app, (await makeUser(app.deps.db)).id);
  asCreator = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
});
afterAll(async () => {
  await app?.close();
});

const postStatus = async (id: string) => (await app.deps.db.selectFrom('posts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('queue dashboard', () => {
  it('is for admins only: 401 for visitors, 403 for other users, page and API alike', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues', '/admin/queues/static/js/main.js']) {
      expect((await app.client().fetch(path)).status, path).toBe(401);
      expect((await asUser.fetch(path)).status, path).toBe(403);
      expect((await asCreator.fetch(path)).status, path).toBe(403);
    }
    const retry = await asUser.fetch('/admin/queues/api/queues/media/x/retry', { method: 'PUT' });
    expect(retry.status).toBe(403);
  });

  it('shows every queue to an admin', async () => {
    const page = await asAdmin.fetch('/admin/queues');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('CreatorHub queues');
    // nothing from a third party the page's policy refuses (issue 47: Google Fonts' stylesheet was a console error)
    expect(html).not.toContain('fonts.googleapis.com');
    expect(html).toMatch(/<link href="static\/css\/main\.[0-9a-f]+\.css" rel="stylesheet">/);
    const styleSrc = /style-src ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')?.[1] ?? '';
    for (const url of html.matchAll(/(?:href|src)="(https?:[^"]+)"/g)) expect(styleSrc, url[1]).toContain(new URL(url[1]!).origin);
    const api = await asAdmin.fetch('/admin/queues/api/queues?activeQueue=media&status=latest&page=1&jobsPerPage=10');
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: { name: string }[] };
    expect(body.queues.map((q) => q.name).sort()).toEqual(['attachment-transcode', 'attachments', 'exports', 'forensics', 'mail', 'maintenance', 'mass-messages', 'media', 'notifications', 'notify-fanout', 'notify-push', 'transcode']);
  });

  it('lets an admin retry a failed job from the dashboard once the cause is fixed', async () => {
    const image = await jpegWithExif(300, 200);
    // stop the media queue so the upload's bytes can be taken away before processing
    await app.deps.queues.media.pause();
    const { postId } = await tusUpload(asCreator, image, uploadFields('missing.jpg'));
    const key = `posts/${postId}/upload.jpg`;
    await app.deps.storage.delete(key);
    await app.deps.queues.media.resume();
    await waitFor(async () => (await postStatus(postId)) === 'failed');
    const jobId = processPostJobId(postId);
    const failed = await jobIn(app.deps.queues.media, jobId, 'failed');
    expect(failed.failedReason).toBe('The upload could not be read: the file is damaged or incomplete.');

    const listed = await asAdmin.fetch('/admin/queues/api/queues?activeQueue=media&status=failed&page=1&jobsPerPage=10');
    const queues = ((await listed.json()) as { queues: { name: string; jobs: { id: string; failedReason: string }[] }[] }).queues;
    expect(queues.find((q) => q.name === 'media')!.jobs.find((j) => j.id === jobId)?.failedReason).toBe(failed.failedReason);

    // the bytes are back; the admin presses Retry
    await app.deps.storage.put(key, image, 'application/octet-stream');
    const retried = await asAdmin.fetch(`/admin/queues/api/queues/media/${jobId}/retry`, { method: 'PUT' });
    expect(retried.status).toBe(204);
    await waitFor(async () => (await postStatus(postId)) === 'published');
  });
});

describe('metrics', () => {
  const remote = { 'x-forwarded-for': '203.0.113.7' };

  it('answers a scraper holding METRICS_TOKEN with queue depths, job durations and HTTP latencies', async () => {
    await asCreator.trpc.creators.featured.query();
    await app.drain('media');
    const res = await app.client().fetch('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/queue_jobs\{queue="media",state="completed"\} \d+/);
    expect(text).toMatch(/queue_jobs\{queue="transcode",state="waiting"\} 0/);
    expect(text).toMatch(/queue_jobs\{queue="attachment-transcode",state="waiting"\} 0/);
    expect(text).toMatch(/queue_job_duration_seconds_count\{queue="media",job="process-post",outcome="completed"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/trpc\/creators.featured",status="200"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="PATCH",route="\/uploads\/:id",status="204"\} [1-9]/);
    expect(text).toContain('process_cpu_user_seconds_total');
    // URLs with ids never become labels
    expect(text).not.toMatch(/route="\/uploads\/[0-9a-f]{32}"/);
  });

  it('refuses anyone else but admins', async () => {
    expect((await app.client().fetch('/metrics', { headers: remote })).status).toBe(401);
    expect((await asUser.fetch('/metrics', { headers: remote })).status).toBe(403);
    const admin = await asAdmin.fetch('/metrics', { headers: remote });
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain('queue_jobs');
  });
});
