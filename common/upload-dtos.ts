import type { MediaKind, PostStatus } from './enums';

/** A post of the creator's still in the media pipeline or failed in it (`uploads.unfinished`). */
export interface UnfinishedPostDto {
  postId: string;
  status: Extract<PostStatus, 'processing' | 'failed'>;
  /** what the post becomes once processed */
  targetStatus: 'draft' | 'published' | 'scheduled';
  mediaKind: MediaKind | null;
  /** the post's title, when it was given one */
  title: string | null;
  /** the first file's name (a post of several files has `fileCount` of them) */
  filename: string | null;
  fileCount: number;
  /** why it failed, in words for the creator; null while processing */
  failureReason: string | null;
  optimisticId: string | null;
  createdAt: Date;
}

/**
 * How 'Your uploads' names an unfinished post (issue 47): its title; else its file's name, and
 * for a post of several files how many more ('photo1.jpg and 2 more'); else 'Untitled upload'.
 */
export function unfinishedUploadName(row: { title?: string | null; filename: string | null; fileCount?: number }): string {
  const title = row.title?.trim();
  if (title) return title;
  if (!row.filename) return 'Untitled upload';
  const more = (row.fileCount ?? 1) - 1;
  return more > 0 ? `${row.filename} and ${more} more` : row.filename;
}
