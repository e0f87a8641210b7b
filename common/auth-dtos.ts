import type { UserRole } from './enums';

/** The signed-in user as the client sees it (`auth.me`, `auth.signIn`); never a hash or a token. */
export interface UserDto {
  id: string;
  email: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  isCreator: boolean;
  isPremium: boolean;
  isVerified: boolean;
  role: UserRole;
}
