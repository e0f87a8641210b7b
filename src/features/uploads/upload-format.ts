import { formatRelativeTime } from '../../lib/format';

/** "820 KB", "12.4 MB": a file's size as the upload form shows it (1 MB = 1024 KB, as the limits). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/** When an upload started: "just now", "5m ago", "on Mar 14". */
export function startedWhen(date: Date): string {
  const relative = formatRelativeTime(date);
  if (relative === 'just now') return relative;
  return /^\d+[mhd]$/.test(relative) ? `${relative} ago` : `on ${relative}`;
}
