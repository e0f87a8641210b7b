import { MEDIA_SETTINGS_DEFAULTS, type MediaSettingsDto, type MediaSettingsInput } from '../../../common/media-settings';
import { MEDIA_SETTINGS_TEXTS } from '../../../common/media-settings-texts';
import type { AppDeps } from '../../../core/deps';
import { findMediaSettings, upsertMediaSettings } from './media-settings.queries';

const toDto = (row: {
  watermark_enabled: boolean;
  watermark_text: string | null;
  watermark_position: MediaSettingsDto['watermarkPosition'];
  mark_paid_pictures: boolean;
}): MediaSettingsDto => ({
  watermarkEnabled: row.watermark_enabled,
  watermarkText: row.watermark_text,
  watermarkPosition: row.watermark_position,
  markPaidPictures: row.mark_paid_pictures,
});

/** The user's watermark settings; the spec's defaults (on, centered, @username) when none are saved. */
export async function getMediaSettings(deps: Pick<AppDeps, 'db'>, userId: string): Promise<MediaSettingsDto> {
  const row = await findMediaSettings(deps.db, userId);
  return row ? toDto(row) : { ...MEDIA_SETTINGS_DEFAULTS };
}

/**
 * Saves (upserts) a creator's watermark settings; the next processed upload uses them. The buyer's
 * mark applies at once: the media route reads it on every request, and the save's `updated_at` makes
 * every marked copy kept before it stale (docs/media.md).
 */
export async function saveMediaSettings(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  input: MediaSettingsInput,
): Promise<{ settings: MediaSettingsDto; message: string }> {
  const row = await upsertMediaSettings(deps.db, userId, {
    watermark_enabled: input.watermarkEnabled,
    watermark_text: input.watermarkText,
    watermark_position: input.watermarkPosition,
    mark_paid_pictures: input.markPaidPictures,
  });
  return { settings: toDto(row), message: MEDIA_SETTINGS_TEXTS.saved };
}
