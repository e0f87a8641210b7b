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
