import type { Job, JobState, Queue } from 'bullmq';
import { waitFor } from './tus';

/**
 * Waits for a job to reach `state`, then reads the job. The state comes first: BullMQ moves a
 * job and bumps its attempts in one script, so a job read before its state can still show the
 * attempts of the run that has just ended.
 */
export async function jobIn(queue: Queue, jobId: string, state: JobState, timeoutMs = 20_000): Promise<Job> {
  await waitFor(async () => (await queue.getJobState(jobId)) === state, timeoutMs, `job ${jobId} to be ${state}`);
  const job = await queue.getJob(jobId);
  if (!job) throw new Error(`job ${jobId} vanished after it was ${state}`);
  return job;
}
