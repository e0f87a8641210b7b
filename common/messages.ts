import { MEBIBYTE } from './file-size';

/**
 * Direct messages (spec part 2 §2, §5, §9): the constants the client, the server and the worker
 * share. The spec's words live in MESSAGE_TEXTS (common/texts.ts).
 */

/** The spec's 8 quick emoji, in its order: thumbs up, heart, smile, laugh, party, clap, fire, raised hands. */
export const QUICK_EMOJI = ['👍', '❤️', '😊', '😂', '🎉', '👏', '🔥', '🙌'] as const;
export type QuickEmoji = (typeof QUICK_EMOJI)[number];

export const MESSAGE_PAGE_SIZE = 20;
export const CHAT_LIST_PAGE_SIZE = 20;
/** spec §9: the chat list loads more at 10% sentinel visibility */
export const SENTINEL_VISIBLE_RATIO = 0.1;
/** our own bound (the spec names none): long enough for any chat message, short enough to render */
export const MESSAGE_MAX_LENGTH = 4000;
/** spec §5: 'File size must be less than 10MB' */
export const MESSAGE_ATTACHMENT_MAX_BYTES = 10 * MEBIBYTE;
/** sending: 30 messages a minute per user */
export const MESSAGE_SEND_LIMIT = { points: 30, windowSeconds: 60 } as const;
/** attachment uploads: 20 a minute per user */
export const MESSAGE_UPLOAD_LIMIT = { points: 20, windowSeconds: 60 } as const;
/**
 * Attachments uploaded but in no message yet (issue 23): at most this many bytes per user (5
 * files of the largest size); they are deleted UNSENT_ATTACHMENT_TTL_HOURS after their upload.
 */
export const MESSAGE_UNSENT_ATTACHMENTS_MAX_BYTES = 50 * MEBIBYTE;
/** the most ids one markRead may carry */
export const MARK_READ_MAX = 100;
/** the most messages one `since` answer carries */
export const SINCE_MAX = 100;
/** how long a 'typing' signal lasts without another one */
export const TYPING_TTL_MS = 5_000;
export const REPORT_REASON_MAX_LENGTH = 500;

export type MessageMediaKind = 'image' | 'video' | 'audio' | 'pdf' | 'document';
export type AttachmentStatus = 'processing' | 'ready' | 'failed';

/**
 * Spec §5: images, video, audio, pdf, doc, docx. SVG and plain text are post-only formats: a chat
 * attachment is one of these, checked again by its bytes in the worker.
 */
export const MESSAGE_ATTACHMENT_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'gif', 'mp4', 'webm', 'mov', 'mp3', 'wav', 'ogg', 'pdf', 'doc', 'docx'] as const;

/** For `<input type="file" accept=...>`. */
export const MESSAGE_ATTACHMENT_ACCEPT = MESSAGE_ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`).join(',');

/** The path of an attachment's served file (the authorised media route). */
export const messageMediaUrl = (attachmentId: string) => `/media/messages/${attachmentId}`;
/**
 * A chat video's master playlist (issue 49, docs/media.md), beside its file's URL: null for
 * anything else (a pending message's local blob). It answers 404 until the ladder is made, and the
 * player plays the file then.
 */
export const messageStreamUrlOf = (mediaUrl: string) => (/^\/media\/messages\/[0-9a-f-]{36}$/.test(mediaUrl) ? `${mediaUrl}/hls/master.m3u8` : null);
/** A chat file's blurred preview (the worker's, as a premium post's): what a pay-per-view file shows before it is bought. */
export const messagePreviewUrl = (attachmentId: string) => `/media/messages/${attachmentId}/preview`;
/** A report's copy of the reported file: admins only (server/features/messages/messages.http.ts). */
export const reportEvidenceUrl = (reportId: string) => `/media/reports/${reportId}`;
/** Where a report's copy of the reported file lives in storage (owned by the report, not the sender). */
export const reportEvidenceKey = (reportId: string, copyId: string) => `message-reports/${reportId}/${copyId}`;

/** The upload endpoint of chat attachments: `POST ?name=<file name>` with the raw bytes. */
export const MESSAGE_ATTACHMENT_UPLOAD_PATH = '/message-attachments';
