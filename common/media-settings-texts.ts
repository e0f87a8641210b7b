// Apart from common/texts.ts, so the landing page's script does not carry these screens' words.
/** Media (watermark) settings (spec part 2 §2, §8). */
export const MEDIA_SETTINGS_TEXTS = {
  loadFailed: 'Failed to load media settings.',
  saveFailed: 'Failed to save media settings.',
  signInRequired: 'You must be logged in to save settings.',
  saved: 'Media settings saved successfully.',
  // Not in the spec.
  textTooLong: 'Watermark text must be at most 50 characters',
  creatorsOnly: 'Only creators have media settings',
} as const;
