/**
 * The user and profile columns every signed-in answer is built from (the user DTO): read with the
 * session on each request and with the password hash at sign-in, so both stay one list.
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
