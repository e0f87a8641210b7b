import type { UserDto } from '../../common/auth-dtos';

/** The signed-in user as the server sees it; never carries a hash. */
export interface SessionUser extends UserDto {
  emailVerified: boolean;
}

export interface SessionInfo {
  id: string;
  userId: string;
  expiresAt: Date;
}

/** What a request's session cookie resolves to (server/auth/resolve-session.ts), and what a server copy caches of it. */
export interface ResolvedSession {
  session: SessionInfo;
  user: SessionUser;
}
