/** The viewer a file gets, by its type (spec part 1 §5: mime prefix image/, video/, audio/, or application/pdf or a .pdf name). */
export type ViewerKind = 'image' | 'video' | 'audio' | 'pdf' | 'unsupported';

export function viewerKind(contentType: string, fileName?: string | null): ViewerKind {
  const type = contentType.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || fileName?.toLowerCase().endsWith('.pdf')) return 'pdf';
  return 'unsupported';
}
