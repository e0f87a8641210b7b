import type { MediaKind, PostStatus } from './enums';

/** A post of the creator's still in the media pipeline or failed in it (`uploads.unfinished`). */
export interface UnfinishedPostDto {
  postId: string;
  status: Extract<PostStatus, 'processing' | 'failed'>;
  /** what the post becomes once processed */
  targetStatus: 'draft' | 'published' | 'scheduled';
  mediaKind: MediaKind | null;
  filename: string | null;
  /** why it failed, in words for the creator; null while processing */
  failureReason: string | null;
  optimisticId: string | null;
  createdAt: Date;
}
