/** File names for downloads, shared by the media route and the client's Save Media. */

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/webm': 'weba',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** The spec: "an extension is added from the content type (jpg, png, mp4, pdf)"; 'bin' when unknown. */
export function extensionForContentType(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return EXTENSIONS[type] ?? 'bin';
}

/** A file-name-safe slug of the title (ASCII letters, digits and hyphens, at most 80 characters). */
export function slugifyTitle(title: string | null | undefined): string {
  return (title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** `<title slug>.<ext>`, or `post-<first 8 of the id>.<ext>` for an untitled post. */
export function downloadFileName(title: string | null | undefined, contentType: string, postId: string): string {
  const base = slugifyTitle(title) || `post-${postId.slice(0, 8)}`;
  return `${base}.${extensionForContentType(contentType)}`;
}
