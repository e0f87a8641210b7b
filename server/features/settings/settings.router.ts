import { SaveContentSettingsInput, SaveNotificationsInput, SavePrivacyInput, UpdatePersonalInfoInput } from '../../../common/settings';
import { authedProcedure, router } from '../../trpc/init';
import * as settings from './settings.service';

/**
 * The settings screens (issue 13, part A). Every procedure needs a session and acts on the
 * caller only: no input names a user. The avatar is uploaded by POST /avatar (avatar.http.ts).
 */
export const settingsRouter = router({
  /** /settings/personal-info: username, display name, bio, categories, avatar (and whether one is being processed). */
  personalInfo: authedProcedure.query(({ ctx }) => settings.personalInfo(ctx, ctx.user.id)),

  /**
   * Saves the profile fields: 'Your profile has been updated.'. CONFLICT 'This username is
   * already taken' (field `username`), BAD_REQUEST for a reserved or malformed name, a bio over
   * 500 characters, empty, duplicate or more than 10 categories.
   */
  updatePersonalInfo: authedProcedure
    .input(UpdatePersonalInfoInput)
    .mutation(({ ctx, input }) => settings.updatePersonalInfo(ctx, ctx.user.id, input)),

  /** /settings/account/privacy; a missing row is created with the defaults. */
  privacy: authedProcedure.query(({ ctx }) => settings.privacySettings(ctx, ctx.user.id)),
  /** public, private or friends (owner + active subscribers); 'Privacy settings saved successfully.' */
  savePrivacy: authedProcedure.input(SavePrivacyInput).mutation(({ ctx, input }) => settings.savePrivacySettings(ctx, ctx.user.id, input)),

  /** /settings/account/notifications; a missing row is created with the defaults (all on). */
  notifications: authedProcedure.query(({ ctx }) => settings.notificationSettings(ctx, ctx.user.id)),
  /** 'Notification settings saved successfully.' */
  saveNotifications: authedProcedure
    .input(SaveNotificationsInput)
    .mutation(({ ctx, input }) => settings.saveNotificationSettings(ctx, ctx.user.id, input)),

  /** /settings/account/verification: the stored flags, and the identity as selling reads it (issue 47 item 1). */
  verification: authedProcedure.query(({ ctx }) => settings.verificationStatus(ctx, ctx.user.id)),
  /** The built-in provider's labelled test verification of the caller's identity; on Stripe, FORBIDDEN (Stripe's Connect onboarding verifies). */
  verifyIdentityForTesting: authedProcedure.mutation(({ ctx }) => settings.verifyIdentityForTesting(ctx, ctx.user.id)),

  /** /settings/content: defaults for new uploads and whether comments are open. */
  content: authedProcedure.query(({ ctx }) => settings.contentSettings(ctx, ctx.user.id)),
  saveContent: authedProcedure
    .input(SaveContentSettingsInput)
    .mutation(({ ctx, input }) => settings.saveContentSettings(ctx, ctx.user.id, input)),
});
