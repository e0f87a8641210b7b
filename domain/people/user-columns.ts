import type { UserDto } from '../../common/auth-dtos';
import { hasVerifiedBadge } from '../access/verified-badge';

/**
 * The user and profile columns every signed-in answer is built from (the user DTO): read with the
 * session, with the password hash at sign-in, and into the user's data export (worker), so all
 * three stay one list.
 *
 * Server copies hold them for a few seconds in their session caches (core/sessions/session-cache.ts), so
 * whatever changes one of them calls `realtime.forgetSessions({ userIds })` after its commit:
 * the name (settings), the avatar (worker), creator (creators), Premium (billing effects), the
 * role (scripts/admin.ts). The address is never changed and confirmed before any session exists.
 */
export const USER_DTO_COLUMNS = [
  'users.email',
  'users.role',
  'users.email_verified_at',
  'profiles.username',
  'profiles.display_name',
  'profiles.avatar_url',
  'profiles.is_creator',
  'profiles.is_premium',
  'profiles.is_verified',
] as const;

/** A row of USER_DTO_COLUMNS, as Kysely names them. */
export interface UserDtoRow {
  email: string;
  role: UserDto['role'];
  username: string;
  display_name: string;
  avatar_url: string | null;
  is_creator: boolean;
  is_premium: boolean;
  is_verified: boolean;
}

/** The user DTO of user `id` from its USER_DTO_COLUMNS (the badge by domain/access/verified-badge.ts). */
export function userDtoOf(id: string, row: UserDtoRow): UserDto {
  return {
    id,
    email: row.email,
    role: row.role,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    isCreator: row.is_creator,
    isPremium: row.is_premium,
    isVerified: hasVerifiedBadge(row),
  };
}
