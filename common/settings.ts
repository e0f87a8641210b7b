import type { IdentityVerificationDto } from './selling';
import { z } from 'zod';
import { nameSchema, usernameSchema } from './auth-schemas';
import type { ProfileVisibility } from './enums';
import { safeText } from './text-schema';
import { SETTINGS_TEXTS } from './settings-texts';

/**
 * Inputs and answers of the settings procedures (issue 13, part A), shared by the forms and the
 * server. No input names a user: every procedure acts on the caller (the session says whose).
 */

export const SETTINGS_LIMITS = {
  bioMaxLength: 500,
  categoriesMax: 10,
  categoryMaxLength: 30,
  /** the square side the worker re-encodes avatars to */
  avatarSidePx: 512,
} as const;

/** What the avatar endpoint accepts, by the bytes' signature (file-type's names). */
export const AVATAR_TYPES = ['jpg', 'png', 'webp', 'gif'] as const;
export const AVATAR_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';
/** POST /avatar: the body is the file's bytes. */
export const AVATAR_UPLOAD_PATH = '/avatar';

/** Where an avatar upload waits for the worker (never served), and where the re-encoded one lives and is served from. */
export const avatarIncomingKey = (userId: string, uploadId: string) => `avatars/${userId}/incoming-${uploadId}`;
export const avatarKey = (userId: string, uploadId: string) => `avatars/${userId}/${uploadId}.webp`;
export const avatarUrl = (userId: string, uploadId: string) => `/${avatarKey(userId, uploadId)}`;
/** The storage key behind one of our avatar URLs (null for anything else, e.g. a seeded external URL). */
export function avatarKeyOfUrl(url: string | null): string | null {
  const match = url ? /^\/(avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp)$/.exec(url) : null;
  return match?.[1] ?? null;
}

/** The visibility options the privacy screen offers (spec §9; 'hidden' belongs to Hide Account). */
export const PRIVACY_VISIBILITIES = ['public', 'private', 'friends'] as const satisfies readonly ProfileVisibility[];

/** Categories: each trimmed and non-empty, no duplicates (case-insensitive), at most 10 of 30 characters. */
export const categoriesSchema = z
  .array(
    z
      .string()
      .trim()
      .check(safeText('single-line'))
      .min(1, SETTINGS_TEXTS.categoryEmpty)
      .max(SETTINGS_LIMITS.categoryMaxLength, SETTINGS_TEXTS.categoryTooLong(SETTINGS_LIMITS.categoryMaxLength)),
  )
  .max(SETTINGS_LIMITS.categoriesMax, SETTINGS_TEXTS.tooManyCategories(SETTINGS_LIMITS.categoriesMax))
  .refine((list) => new Set(list.map((c) => c.toLowerCase())).size === list.length, SETTINGS_TEXTS.categoryDuplicate);

export const UpdatePersonalInfoInput = z.object({
  username: usernameSchema,
  displayName: nameSchema(SETTINGS_TEXTS.displayNameRequired),
  bio: z
    .string()
    .trim()
    .check(safeText('multi-line'))
    .max(SETTINGS_LIMITS.bioMaxLength, SETTINGS_TEXTS.bioTooLong(SETTINGS_LIMITS.bioMaxLength)),
  categories: categoriesSchema,
});
export type UpdatePersonalInfoInput = z.output<typeof UpdatePersonalInfoInput>;

export interface PersonalInfoDto {
  username: string;
  displayName: string;
  bio: string;
  categories: string[];
  avatarUrl: string | null;
  /** the worker is still re-encoding an avatar upload */
  avatarPending: boolean;
  /** why the last avatar upload was refused, if it was */
  avatarFailure: string | null;
}

export const SavePrivacyInput = z.object({
  profileVisibility: z.enum(PRIVACY_VISIBILITIES),
  showOnlineStatus: z.boolean(),
  allowFriendRequests: z.boolean(),
});
export type SavePrivacyInput = z.output<typeof SavePrivacyInput>;

export interface PrivacySettingsDto {
  /** 'hidden' while Hide Account is on: the screen then says so rather than offering it */
  profileVisibility: ProfileVisibility;
  showOnlineStatus: boolean;
  allowFriendRequests: boolean;
}

/** A settings form of on/off switches only: each named key a boolean, every one required. */
function switches<K extends string>(...keys: K[]) {
  return z.object(Object.fromEntries(keys.map((key) => [key, z.boolean()])) as Record<K, z.ZodBoolean>);
}

export const SaveNotificationsInput = switches('emailNotifications', 'pushNotifications', 'marketingEmails');
export type SaveNotificationsInput = z.output<typeof SaveNotificationsInput>;
export type NotificationSettingsDto = SaveNotificationsInput;

export interface VerificationStatusDto {
  isEmailVerified: boolean;
  isPhoneVerified: boolean;
  /** `identity.verified`: what selling asks (issue 47 item 1) */
  isIdentityVerified: boolean;
  identity: IdentityVerificationDto;
}

export const SaveContentSettingsInput = switches('defaultNsfw', 'defaultPaid', 'commentsOpen');
export type SaveContentSettingsInput = z.output<typeof SaveContentSettingsInput>;
export type ContentSettingsDto = SaveContentSettingsInput;

export const CONTENT_SETTINGS_DEFAULTS: ContentSettingsDto = { defaultNsfw: false, defaultPaid: false, commentsOpen: true };
export const NOTIFICATION_DEFAULTS: NotificationSettingsDto = { emailNotifications: true, pushNotifications: true, marketingEmails: true };
