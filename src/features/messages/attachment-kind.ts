import { MESSAGE_ATTACHMENT_EXTENSIONS, MESSAGE_ATTACHMENT_MAX_BYTES, type MessageMediaKind } from '../../../common/messages';

/**
 * What a chat attachment may be (spec part 2 §5): images, video, audio, pdf, doc, docx, up to
 * 10 MB. The browser's check gives a quick answer only: the server checks the bytes again.
 */
const KIND_BY_EXTENSION: Record<(typeof MESSAGE_ATTACHMENT_EXTENSIONS)[number], MessageMediaKind> = {
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  webp: 'image',
  gif: 'image',
  mp4: 'video',
  webm: 'video',
  mov: 'video',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  pdf: 'pdf',
  doc: 'document',
  docx: 'document',
};

/** The kind of a chosen file by its extension, or null when a chat does not take it. */
export function attachmentKindOf(fileName: string): MessageMediaKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext && ext in KIND_BY_EXTENSION ? KIND_BY_EXTENSION[ext as keyof typeof KIND_BY_EXTENSION] : null;
}

export function isTooLarge(file: { size: number }): boolean {
  return file.size > MESSAGE_ATTACHMENT_MAX_BYTES;
}

/** The chat list's words for a last message that is only a file. */
export const MEDIA_LABELS: Record<MessageMediaKind, string> = {
  image: 'Photo',
  video: 'Video',
  audio: 'Audio',
  pdf: 'PDF document',
  document: 'Document',
};
