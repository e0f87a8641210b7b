import { formatRelativeTime } from '../../lib/format';

// shared with the posts' document cards
export { formatFileSize } from '../../../common/file-size';

/** When an upload started: "just now", "5m ago", "on Mar 14". */
export function startedWhen(date: Date): string {
  const relative = formatRelativeTime(date);
  if (relative === 'just now') return relative;
  return /^\d+[mhd]$/.test(relative) ? `${relative} ago` : `on ${relative}`;
}
