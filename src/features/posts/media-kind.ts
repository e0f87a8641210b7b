/**
 * The viewer a file gets, by its type (spec part 1 §5: mime prefix image/, video/, audio/, or
 * application/pdf or a .pdf name). The upload form also accepts .txt, .doc and .docx: plain text
 * is shown as text, Word files as a document card with their name and size.
 */
export type ViewerKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'document' | 'unsupported';

const WORD_TYPES = new Set(['application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document']);

export function viewerKind(contentType: string, fileName?: string | null): ViewerKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || fileName?.toLowerCase().endsWith('.pdf')) return 'pdf';
  if (type === 'text/plain') return 'text';
  if (WORD_TYPES.has(type)) return 'document';
  return 'unsupported';
}
