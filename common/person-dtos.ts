/**
 * Someone as others see them beside what they made or said: the same four fields in a comment, a
 * post, a chat, a creator card and the signed-in user's own menu, so one avatar-and-name piece of
 * the client reads them all.
 */
export interface PersonDto {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
}

/** A person with the badges shown beside the name (a post's creator, a chat partner). */
export interface BadgedPersonDto extends PersonDto {
  isVerified: boolean;
  isPremium: boolean;
}
