import { MediaSettingsInput } from '../../../common/media-settings';
import { MEDIA_SETTINGS_TEXTS } from '../../../common/media-settings-texts';
import { authedProcedureSaying, creatorProcedureSaying, router } from '../../trpc/init';
import { getMediaSettings, saveMediaSettings } from './media-settings.service';

const signedIn = authedProcedureSaying(MEDIA_SETTINGS_TEXTS.signInRequired);
const creatorOnly = creatorProcedureSaying(MEDIA_SETTINGS_TEXTS);

export const mediaSettingsRouter = router({
  /**
   * The signed-in user's watermark settings (the /settings/media screen is offered to every
   * signed-in user); the spec's defaults when none are saved: on, center, no text (@username).
   */
  get: signedIn.query(({ ctx }) => getMediaSettings(ctx, ctx.user.id)),

  /**
   * Creators only (FORBIDDEN 'Only creators have media settings'): upserts watermarkEnabled,
   * watermarkText (trimmed; empty means @username; at most 50 characters) and watermarkPosition
   * (center, top-left, top-right, bottom-left, bottom-right), and markPaidPictures (premium and
   * pay-per-view pictures drawn per buyer with their @username; docs/media.md). Returns the saved settings and
   * 'Media settings saved successfully.'
   */
  save: creatorOnly.input(MediaSettingsInput).mutation(({ ctx, input }) => saveMediaSettings(ctx, ctx.user.id, input)),
});
