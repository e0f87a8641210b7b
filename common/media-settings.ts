import { z } from 'zod';
import { WATERMARK_POSITIONS, type WatermarkPosition } from './enums';
import { safeText } from './text-schema';
import { MEDIA_SETTINGS_TEXTS } from './media-settings-texts';

/**
 * Media (watermark) settings (spec part 2 §2, §3, §5, §9): the watermark is on by default, in the
 * center; its text may be empty, which means the creator's @username is used.
 */
export const WATERMARK_TEXT_MAX_LENGTH = 50;

export const MEDIA_SETTINGS_DEFAULTS = {
  watermarkEnabled: true,
  watermarkText: null,
  watermarkPosition: 'center',
  markPaidPictures: false,
} as const satisfies MediaSettingsDto;

export interface MediaSettingsDto {
  watermarkEnabled: boolean;
  /** null: the watermark reads @username */
  watermarkText: string | null;
  watermarkPosition: WatermarkPosition;
  /** premium and pay-per-view pictures carry each buyer's @username, drawn per buyer (docs/media.md) */
  markPaidPictures: boolean;
}

/** The form and `mediaSettings.save`: text trimmed, empty becomes null; position one of the five. */
export const MediaSettingsInput = z.object({
  watermarkEnabled: z.boolean(),
  watermarkText: z
    .string()
    .nullish()
    .transform((v) => v?.trim() ?? '')
    .pipe(z.string().check(safeText('single-line')).max(WATERMARK_TEXT_MAX_LENGTH, MEDIA_SETTINGS_TEXTS.textTooLong))
    .transform((v) => (v === '' ? null : v)),
  watermarkPosition: z.enum(WATERMARK_POSITIONS),
  /** absent (an older client): off */
  markPaidPictures: z.boolean().default(false),
});
export type MediaSettingsInput = z.output<typeof MediaSettingsInput>;

/** What the watermark says: the custom text, else @username. */
export function watermarkLabel(settings: Pick<MediaSettingsDto, 'watermarkText'>, username: string): string {
  return settings.watermarkText?.trim() || `@${username}`;
}
