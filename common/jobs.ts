/**
 * Queue names and job payloads shared by the server (producers) and the worker (handlers).
 * The worker refuses to start when a job name here has no handler, so a name is added here
 * together with its handler.
 */
export const QUEUE_NAMES = ['mail', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface MailJobs {
  'confirm-email': { userId: string; email: string; token: string };
  'reset-password': { userId: string; email: string; token: string };
}

export interface MaintenanceJobs {
  /** repeatable: removes sessions and e-mail tokens past their expiry */
  'purge-expired': Record<string, never>;
  /**
   * After a post's rows are deleted: removes its stored files (every variant). Queued with
   * jobId `delete-post-files-<postId>`; safe to run twice (a missing file is not an error).
   */
  'delete-post-files': { postId: string; keys: string[] };
}

export interface JobsByQueue {
  mail: MailJobs;
  maintenance: MaintenanceJobs;
}

export type JobName<Q extends QueueName> = keyof JobsByQueue[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q>> = JobsByQueue[Q][N];
