import { findOriginalPictureId } from '../../domain/forensics/picture-marks.queries';
import type { TraceVerdict } from '../../domain/forensics/verdict';
import type { WorkerDeps } from '../registry';
import { tracePicture } from './picture-trace';
import { traceVideo } from './video-trace';

/**
 * The tracers of the 'trace-leak' job by the post's kind of media (docs/media.md, "Tracing a
 * leak"): each reads the suspected leak (a hostile file, already in the job's work folder) against
 * the post's own file and answers a TraceVerdict. A new kind is one line here.
 */
export interface TraceInput {
  deps: WorkerDeps;
  postId: string;
  /** the file of the post the leak is compared with */
  position: number;
  /** the uploaded leak, absolute path in `workDir` */
  leakPath: string;
  workDir: string;
  signal?: AbortSignal;
}

export type Tracer = (input: TraceInput) => Promise<TraceVerdict>;

export type TracedKind = 'video' | 'picture';

export const TRACERS: Record<TracedKind, Tracer> = {
  video: traceVideo,
  picture: async ({ deps, postId, position, leakPath }) => {
    const mediaId = await findOriginalPictureId(deps.db, postId, position);
    if (!mediaId) return { kind: 'unknown', reason: 'The post has no original picture to compare with.' };
    return tracePicture({ db: deps.db, storage: deps.storage, postId, mediaId, leakPath });
  },
};
