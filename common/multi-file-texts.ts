/** Words of posts of several files and the media vault (issue 29), outside the landing's chunk (common/texts.ts). */
export const MULTI_FILE_TEXTS = {
  removeNotPossible: 'Only a failed file of a failed post of several files can be removed',
  tooManyFiles: (max: number) => `A post holds at most ${max} files`,
  position: (index: number, count: number) => `${index} / ${count}`,
  previous: 'Previous file',
  next: 'Next file',
  carousel: 'Files of this post',
  fileCount: (count: number) => `${count} files`,
  moveUp: 'Move earlier',
  moveDown: 'Move later',
  remove: 'Remove',
  addMore: 'Add files',
  removeFailed: 'Remove this file',
  uploaded: 'Uploaded - your post is processing',
  listLabel: 'Files of the new post',
  fileOf: (index: number, count: number, name: string) => `File ${index} of ${count}: ${name}`,
} as const;
