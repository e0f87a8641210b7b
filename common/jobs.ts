/**
 * Queue names and job payloads shared by the server (producers) and the worker (handlers).
 * The worker refuses to start when a job name here has no handler, so a name is added here
 * together with its handler.
 */
export const QUEUE_NAMES = ['mail', 'maintenance', 'media', 'transcode'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/**
 * Processing an uploaded post. Two queues share the job: `media` (images and documents: sharp,
 * short, several at a time) and `transcode` (video and audio: ffmpeg, long, one at a time per
 * worker), so a long video never holds up images. The producer picks the queue by the post's
 * kind (`mediaQueueFor`); the jobId is `process-post-<postId>` (`processPostJobId`), so a
 * duplicate add is a no-op and a post is never processed twice at once.
 */
export interface MediaJobs {
  'process-post': { postId: string };
}

/**
 * Mail jobs name the user only: the worker reads the address and makes the link's token when it
 * sends (storing its hash), so no job, in any state, holds a token, a password or a session.
 * Producers add them with MAIL_JOB_OPTIONS.
 */
export interface MailJobs {
  'confirm-email': { userId: string };
  'reset-password': { userId: string };
}

/** A sent mail's job is removed at once: nothing about it is worth keeping in Redis. */
export const MAIL_JOB_OPTIONS = { removeOnComplete: true } as const;

export interface MaintenanceJobs {
  /** repeatable: removes sessions and e-mail tokens past their expiry */
  'purge-expired': Record<string, never>;
  /**
   * After a post's rows are deleted: removes its stored files (every variant). Queued with
   * jobId `delete-post-files-<postId>`; safe to run twice (a missing file is not an error).
   */
  'delete-post-files': { postId: string; keys: string[] };
  /** repeatable: removes partial tus uploads older than UPLOAD_EXPIRY_HOURS from UPLOADS_DIR */
  'expire-uploads': Record<string, never>;
  /**
   * repeatable: posts still 'processing' long after their last change whose job is gone (Redis
   * lost it, or the server died between the commit and the enqueue) are queued again.
   */
  'requeue-processing': Record<string, never>;
}

export interface JobsByQueue {
  mail: MailJobs;
  maintenance: MaintenanceJobs;
  media: MediaJobs;
  transcode: MediaJobs;
}

export type MediaQueueName = 'media' | 'transcode';

/** Video and audio go through ffmpeg on `transcode`; images, PDFs and documents on `media`. */
export function mediaQueueFor(kind: 'image' | 'video' | 'audio' | 'pdf' | 'document' | null): MediaQueueName {
  return kind === 'video' || kind === 'audio' ? 'transcode' : 'media';
}

export const processPostJobId = (postId: string) => `process-post-${postId}`;

export type JobName<Q extends QueueName> = keyof JobsByQueue[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q>> = JobsByQueue[Q][N];
