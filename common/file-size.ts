/** Upload limits are counted in binary megabytes, as people read file sizes. */
export const MEBIBYTE = 1024 * 1024;

/** "820 KB", "12.4 MB": a file's size as people read it (1 MB = 1024 KB, as the upload limits). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}
