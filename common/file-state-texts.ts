/** Words of each file's processing in the upload form (issue 29 item 2), outside the landing's chunk. */
export const FILE_STATE_TEXTS = {
  title: 'Processing your post',
  waiting: 'Waiting',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
  processingOf: (name: string) => `Processing ${name}`,
  dismiss: 'Done',
} as const;
