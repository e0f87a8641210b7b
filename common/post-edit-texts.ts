// Apart from common/texts.ts: the edit dialog loads only when an owner opens it, and its words with it.
/** The owner's 'Edit post' dialog (issue 29 item 4). */
export const POST_EDIT_TEXTS = {
  menuItem: 'Edit post',
  title: 'Edit post',
  description: 'Change what fans read about this post. The media stays as it is.',
  titleLabel: 'Title',
  textLabel: 'Text',
  hashtagsLabel: 'Hashtags',
  premiumLabel: 'Premium: only subscribers see it',
  payPerViewLabel: 'Pay-per-view: fans unlock it for a price',
  modeLabel: 'Who pays',
  save: 'Save',
  saved: { title: 'Post updated', description: 'Fans with the post open see the change now.' },
  failed: { title: 'Error', description: 'Failed to update the post. Please try again.' },
  notAllowed: { title: 'Permission denied', description: 'Only the creator can edit this post' },
} as const;
