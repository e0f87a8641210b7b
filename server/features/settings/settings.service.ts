import { TRPCError } from '@trpc/server';
import {
  CONTENT_SETTINGS_DEFAULTS,
  type ContentSettingsDto,
  type NotificationSettingsDto,
  type PersonalInfoDto,
  type PRIVACY_VISIBILITIES,
  type PrivacySettingsDto,
  type SaveContentSettingsInput,
  type SaveNotificationsInput,
  type SavePrivacyInput,
  type UpdatePersonalInfoInput,
  type VerificationStatusDto,
} from '../../../common/settings';
import { VALIDATION } from '../../../common/texts';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { SELLING_TEXTS } from '../../../common/selling';
import type { AppDeps } from '../../../core/deps';
import { identityVerification, recordTestVerification } from '../../../domain/people/verification';
import { databaseErrorOf, fieldError } from '../../trpc/errors';
import * as q from './settings.queries';
import { profileAccessChanged } from '../../../domain/announcements/access-changes';

type Deps = Pick<AppDeps, 'db' | 'realtime'>;
export type PrivacyVisibilityChoice = (typeof PRIVACY_VISIBILITIES)[number];

/**
 * The settings of the signed-in user (issue 13, part A). Every function acts on `userId`, the
 * session's user: no input names anyone, so nobody can read or change another user's settings.
 */

type PersonalInfoRow = NonNullable<Awaited<ReturnType<typeof q.findPersonalInfo>>>;

const toPersonalInfo = (row: PersonalInfoRow): PersonalInfoDto => ({
  username: row.username,
  displayName: row.display_name,
  bio: row.bio ?? '',
  categories: row.categories,
  avatarUrl: row.avatar_url,
  avatarPending: row.avatar_pending_id !== null,
  avatarFailure: row.avatar_failure,
});

const accountGone = () => new TRPCError({ code: 'UNAUTHORIZED', message: 'Not authenticated' });

export async function personalInfo(deps: Deps, userId: string): Promise<PersonalInfoDto> {
  const row = await q.findPersonalInfo(deps.db, userId);
  if (!row) throw accountGone();
  return toPersonalInfo(row);
}

/**
 * Saves username, display name, bio and categories. The username is unique in any case
 * (CONFLICT 'This username is already taken' on the `username` field, from the unique index on
 * lower(username): one statement, so two users racing for a name get the same answer) and may not
 * be a reserved name (refused by the schema). The old /{username} stops resolving at once, as
 * profiles are found by their current name.
 */
export async function updatePersonalInfo(
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  userId: string,
  input: UpdatePersonalInfoInput,
): Promise<{ profile: PersonalInfoDto; message: string }> {
  const row = await q
    .updatePersonalInfo(deps.db, userId, {
      username: input.username,
      display_name: input.displayName,
      bio: input.bio === '' ? null : input.bio,
      categories: input.categories,
    })
    .catch((error: unknown) => {
      if (databaseErrorOf(error)?.code === '23505') throw fieldError('username', VALIDATION.usernameTaken, 'CONFLICT');
      throw error;
    });
  if (!row) throw accountGone();
  // the name is part of the signed-in user every copy may hold in its session cache
  await deps.realtime.forgetSessions({ userIds: [userId] });
  return { profile: toPersonalInfo(row), message: SETTINGS_TEXTS.profileUpdated };
}

type PrivacyRow = Awaited<ReturnType<typeof q.ensurePrivacySettings>>;
const toPrivacy = (row: PrivacyRow): PrivacySettingsDto => ({
  profileVisibility: row.profile_visibility,
  showOnlineStatus: row.show_online_status,
  allowFriendRequests: row.allow_friend_requests,
});

/** The privacy settings; a missing row is created with the defaults (public, both switches on). */
export async function privacySettings(deps: Deps, userId: string): Promise<PrivacySettingsDto> {
  return toPrivacy(await q.ensurePrivacySettings(deps.db, userId));
}

/**
 * Saves visibility (public, private or friends), show online status and allow friend requests.
 * The access rule (domain/access) reads the row on every request, so the feed, profile, Explore,
 * featured lists and the media route follow at once; sockets already in the user's rooms are
 * checked again (domain/announcements/access-changes.ts).
 */
export async function savePrivacySettings(deps: Deps, userId: string, input: SavePrivacyInput): Promise<{ settings: PrivacySettingsDto; message: string }> {
  const row = await q.upsertPrivacySettings(deps.db, userId, {
    profile_visibility: input.profileVisibility,
    show_online_status: input.showOnlineStatus,
    allow_friend_requests: input.allowFriendRequests,
  });
  // sockets that joined this user's post or presence rooms under the old setting follow the new one
  profileAccessChanged(deps.realtime, userId);
  return { settings: toPrivacy(row), message: SETTINGS_TEXTS.privacySaved };
}

type NotificationRow = Awaited<ReturnType<typeof q.ensureNotificationSettings>>;
const toNotifications = (row: NotificationRow): NotificationSettingsDto => ({
  emailNotifications: row.email_notifications,
  pushNotifications: row.push_notifications,
  marketingEmails: row.marketing_emails,
});

/** The three switches; a missing row is created with the defaults (all on). Senders ask domain/notifications/email-consent.ts. */
export async function notificationSettings(deps: Deps, userId: string): Promise<NotificationSettingsDto> {
  return toNotifications(await q.ensureNotificationSettings(deps.db, userId));
}

export async function saveNotificationSettings(
  deps: Deps,
  userId: string,
  input: SaveNotificationsInput,
): Promise<{ settings: NotificationSettingsDto; message: string }> {
  const row = await q.upsertNotificationSettings(deps.db, userId, {
    email_notifications: input.emailNotifications,
    push_notifications: input.pushNotifications,
    marketing_emails: input.marketingEmails,
  });
  return { settings: toNotifications(row), message: SETTINGS_TEXTS.notificationsSaved };
}

/**
 * The stored flags: confirming the e-mail address sets the first (auth.service confirmEmail); the
 * identity is what selling asks (domain/people/verification.ts), with how it was verified.
 */
export async function verificationStatus(deps: Pick<AppDeps, 'db' | 'payments'>, userId: string): Promise<VerificationStatusDto> {
  const [row, identity] = await Promise.all([q.findVerificationStatus(deps.db, userId), identityVerification(deps.db, userId, deps.payments.name)]);
  return {
    isEmailVerified: row?.is_email_verified ?? false,
    isPhoneVerified: row?.is_phone_verified ?? false,
    isIdentityVerified: identity.verified,
    identity,
  };
}

/** The built-in provider's labelled test verification (/settings/account/verification); on Stripe, FORBIDDEN with where to go instead. */
export async function verifyIdentityForTesting(deps: Pick<AppDeps, 'db' | 'payments' | 'clock'>, userId: string): Promise<{ status: VerificationStatusDto; message: string }> {
  if ((await recordTestVerification(deps.db, userId, deps.payments.name, deps.clock.now())) === 'not-builtin') {
    throw new TRPCError({ code: 'FORBIDDEN', message: SELLING_TEXTS.testOnlyBuiltin });
  }
  return { status: await verificationStatus(deps, userId), message: SELLING_TEXTS.testVerified };
}

type ContentRow = NonNullable<Awaited<ReturnType<typeof q.findContentSettings>>>;
const toContent = (row: ContentRow): ContentSettingsDto => ({
  defaultNsfw: row.default_nsfw,
  defaultPaid: row.default_paid,
  commentsOpen: row.comments_open,
});

/** The creator's defaults for new uploads and whether their posts take comments (defaults: off, off, open). */
export async function contentSettings(deps: Deps, userId: string): Promise<ContentSettingsDto> {
  const row = await q.findContentSettings(deps.db, userId);
  return row ? toContent(row) : { ...CONTENT_SETTINGS_DEFAULTS };
}

export async function saveContentSettings(
  deps: Deps,
  userId: string,
  input: SaveContentSettingsInput,
): Promise<{ settings: ContentSettingsDto; message: string }> {
  const row = await q.upsertContentSettings(deps.db, userId, {
    default_nsfw: input.defaultNsfw,
    default_paid: input.defaultPaid,
    comments_open: input.commentsOpen,
  });
  return { settings: toContent(row), message: SETTINGS_TEXTS.contentSaved };
}
