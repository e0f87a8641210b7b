import { describe, expect, it } from 'vitest';
import { uploadRuleFor } from '../../../common/uploads';
import type { UnfinishedUpload } from './tus-upload';
import { INITIAL_UPLOAD, percentSent, uploadReducer, type UploadEvent, type UploadState } from './upload-machine';

const rule = uploadRuleFor('photo.jpg')!;
const file = { file: { name: 'photo.jpg', size: 1000 } as File, rule };
const offer = { offset: 400, size: 1000, metadata: { status: 'draft' } } as unknown as UnfinishedUpload;
const retry = { text: { title: 'Upload failed' }, action: 'retry' } as const;
const refusedText = { text: { title: 'Upload failed', description: 'not a JPG' }, action: 'choose-another' } as const;

const run = (...events: UploadEvent[]) => events.reduce(uploadReducer, INITIAL_UPLOAD);
const started = (state: UploadState = run({ type: 'picked', file })) =>
  uploadReducer(state, { type: 'started', status: 'published', resumedFrom: null, size: 1000 });

describe('the upload state machine', () => {
  it('picks a file while idle, and starts sending it from the first byte or where the server is', () => {
    const picked = run({ type: 'picked', file });
    expect(picked).toMatchObject({ phase: 'idle', picked: file, pick: 1 });
    expect(started(picked)).toMatchObject({ phase: 'uploading', status: 'published', progress: { sent: 0, total: 1000 }, resumedFrom: null });
    const resumed = uploadReducer(picked, { type: 'started', status: 'draft', resumedFrom: 400, size: 1000 });
    expect(resumed).toMatchObject({ phase: 'uploading', status: 'draft', progress: { sent: 400, total: 1000 }, resumedFrom: 400 });
  });

  it('does not start without a file, and takes no other file, clear or offer while sending', () => {
    expect(uploadReducer(INITIAL_UPLOAD, { type: 'started', status: 'draft', resumedFrom: null, size: 1 })).toBe(INITIAL_UPLOAD);
    const sending = started();
    expect(uploadReducer(sending, { type: 'picked', file })).toBe(sending);
    expect(uploadReducer(sending, { type: 'cleared' })).toBe(sending);
    expect(uploadReducer(sending, { type: 'unfinished-found', pick: sending.pick, offer })).toBe(sending);
    expect(uploadReducer(sending, { type: 'started', status: 'draft', resumedFrom: null, size: 1 })).toBe(sending);
  });

  it('offers an earlier upload only for the pick it was looked up for', () => {
    const first = run({ type: 'picked', file });
    const second = uploadReducer(first, { type: 'picked', file });
    expect(uploadReducer(second, { type: 'unfinished-found', pick: first.pick, offer })).toBe(second);
    const offered = uploadReducer(second, { type: 'unfinished-found', pick: second.pick, offer });
    expect(offered.resumeOffer).toBe(offer);
    expect(uploadReducer(offered, { type: 'earlier-declined' }).resumeOffer).toBeNull();
    expect(started(offered).resumeOffer).toBeNull();
    // a cleared file makes a late answer stale too
    const cleared = uploadReducer(second, { type: 'cleared' });
    expect(uploadReducer(cleared, { type: 'unfinished-found', pick: second.pick, offer })).toBe(cleared);
  });

  it('pauses only while uploading; resumes from paused or stalled, and a resume clears the failure', () => {
    expect(uploadReducer(INITIAL_UPLOAD, { type: 'paused' })).toBe(INITIAL_UPLOAD);
    const paused = uploadReducer(started(), { type: 'paused' });
    expect(paused.phase).toBe('paused');
    expect(uploadReducer(paused, { type: 'paused' })).toBe(paused);
    expect(uploadReducer(paused, { type: 'resumed' }).phase).toBe('uploading');
    const stalled = uploadReducer(started(), { type: 'stalled', failure: retry });
    expect(stalled).toMatchObject({ phase: 'stalled', failure: retry });
    expect(uploadReducer(stalled, { type: 'resumed' })).toMatchObject({ phase: 'uploading', failure: null });
    expect(uploadReducer(started(), { type: 'resumed' }).phase).toBe('uploading');
  });

  it('a refusal stops sending but keeps the file and says why; a cancel says nothing', () => {
    const refused = uploadReducer(started(), { type: 'refused', failure: refusedText });
    expect(refused).toMatchObject({ phase: 'idle', status: null, progress: null, picked: file, failure: refusedText });
    const canceled = uploadReducer(uploadReducer(started(), { type: 'stalled', failure: retry }), { type: 'canceled' });
    expect(canceled).toMatchObject({ phase: 'idle', status: null, progress: null, failure: null, picked: file });
    expect(uploadReducer(INITIAL_UPLOAD, { type: 'canceled' })).toBe(INITIAL_UPLOAD);
  });

  it('a finished upload clears the form for the next post, and a late lookup of its pick is ignored', () => {
    const sending = uploadReducer(started(), { type: 'progressed', sent: 700, total: 1000 });
    expect(sending.progress).toEqual({ sent: 700, total: 1000 });
    const done = uploadReducer(sending, { type: 'finished' });
    expect(done).toEqual({ ...INITIAL_UPLOAD, pick: sending.pick + 1 });
    expect(uploadReducer(done, { type: 'progressed', sent: 1000, total: 1000 })).toBe(done);
    expect(uploadReducer(done, { type: 'unfinished-found', pick: sending.pick, offer })).toBe(done);
  });

  it("the worker's refusal shows beside the form until dismissed", () => {
    const failed = uploadReducer(INITIAL_UPLOAD, { type: 'worker-failed', failure: refusedText });
    expect(failed.failure).toBe(refusedText);
    expect(uploadReducer(failed, { type: 'failure-dismissed' }).failure).toBeNull();
  });

  it('counts whole percents, never past 100', () => {
    expect(percentSent(0, 0)).toBe(0);
    expect(percentSent(999, 1000)).toBe(99);
    expect(percentSent(2000, 1000)).toBe(100);
  });
});
