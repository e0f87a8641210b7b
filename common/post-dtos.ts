import type { MediaKind, PostStatus } from './enums';
import type { BadgedPersonDto, PersonDto } from './person-dtos';
import type { FeedCursor } from './post-schemas';

/**
 * What the server returns for posts and comments (and sends in socket events). The server maps
 * rows to these in its services; the client may use them or tRPC's RouterOutputs (the same types).
 */
export type PostCreatorDto = BadgedPersonDto;

export interface PostMediaDto {
  /** the original file's type; decides the viewer (image/, video/, audio/, application/pdf, text/plain, Word) */
  contentType: string;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  /** the name of the file the creator uploaded (a document card shows it), only when `viewer.canViewMedia` */
  fileName: string | null;
  /** bytes of the original file, only when `viewer.canViewMedia` */
  byteSize: number | null;
  /** the full media, only when `viewer.canViewMedia`: `/media/<id>/web` for images, else `/media/<id>/original` */
  url: string | null;
  /** the 320 px size; only when `viewer.canViewMedia` and the variant exists */
  thumbUrl: string | null;
  /** the 720 px size; only when `viewer.canViewMedia` and the variant exists (images made before it have none) */
  mediumUrl: string | null;
  /** video frame; only when `viewer.canViewMedia` and the variant exists */
  posterUrl: string | null;
  /** `/media/<id>/original?download=1` (Content-Disposition: attachment), only when `viewer.canViewMedia` */
  downloadUrl: string | null;
  /**
   * a video's HLS master playlist (docs/media.md), only when `viewer.canViewMedia`: made for the
   * viewer on each request; 404 until the worker has made its ladder, when the player plays `url`
   */
  streamUrl: string | null;
  /** the blurred teaser of a premium post, when one was made; what a locked card shows */
  previewUrl: string | null;
}

export interface PostDto {
  id: string;
  title: string | null;
  text: string | null;
  hashtags: string[];
  isPremium: boolean;
  isNsfw: boolean;
  status: PostStatus;
  createdAt: Date;
  /** a scheduled post's time (only its owner ever sees a scheduled post); null otherwise */
  publishAt?: Date | null;
  mediaKind: MediaKind | null;
  creator: PostCreatorDto;
  counts: { likes: number; comments: number; bookmarks: number };
  viewer: {
    liked: boolean;
    bookmarked: boolean;
    isOwner: boolean;
    /** false: show the 'Premium Content / Subscribe to view' overlay over `media.previewUrl` */
    canViewMedia: boolean;
  };
  media: PostMediaDto | null;
  /**
   * pay-per-view (issue 27 item 2): the price in rand ('50.00'), who pays it ('everyone': the
   * creator's subscribers too; 'non_subscribers': free with a subscription), and whether this
   * viewer bought it; null: not pay-per-view
   */
  unlock?: { price: string; mode: 'everyone' | 'non_subscribers'; unlocked: boolean } | null;
  /** pinned to the top of the creator's profile (issue 29 item 5); null: not pinned */
  pinnedAt?: Date | null;
  /** a post of several files (issue 29): every file in its order, the first being `media`; absent for one file */
  files?: PostMediaDto[];
}

export type CommentAuthorDto = PersonDto;

export interface CommentDto {
  id: string;
  postId: string;
  /** null for a top-level comment */
  parentId: string | null;
  /** plain text: render as text, never as HTML */
  text: string;
  createdAt: Date;
  author: CommentAuthorDto;
}

/** A page of a keyset-paginated list; `nextCursor` is null when this page was the last. */
export interface PageDto<T, C> {
  items: T[];
  nextCursor: C | null;
}

/** A page of post cards: the feed, a profile's Content and Drafts tabs, bookmarks, Explore. */
export type PostPageDto = PageDto<PostDto, FeedCursor>;

/** `posts.like` / `posts.unlike`: the viewer's state and the post's like count after the change. */
export interface LikeResult {
  postId: string;
  liked: boolean;
  likes: number;
}

/** `bookmarks.add` / `bookmarks.remove`. */
export interface BookmarkResult {
  postId: string;
  bookmarked: boolean;
  /** the post's bookmark count after the change */
  bookmarks: number;
}

/** `comments.add`: the new comment and the post's comment count after it. */
export interface AddCommentResult {
  comment: CommentDto;
  comments: number;
}
