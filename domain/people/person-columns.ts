import type { BadgedPersonDto } from '../../common/person-dtos';
import { verifiedBadge } from '../access/verified-badge';

/**
 * Someone beside what they made or said (a creator card, a profile, a chat partner): the columns
 * of a BadgedPersonDto from the profile under alias `a`, with THE verified badge
 * (../access/verified-badge.ts), so every list reads the same person the same way.
 */
export const personColumns = <A extends string>(a: A) =>
  [`${a}.id`, `${a}.username`, `${a}.display_name`, `${a}.avatar_url`, verifiedBadge(a).as('verified_badge'), `${a}.is_premium`] as const;

/** The same, each named `<a>_<column>`, for a row that carries two people (a report's reporter and sender). */
export const prefixedPersonColumns = <A extends string>(a: A) =>
  [
    `${a}.id as ${a}_id`,
    `${a}.username as ${a}_username`,
    `${a}.display_name as ${a}_display_name`,
    `${a}.avatar_url as ${a}_avatar_url`,
    verifiedBadge(a).as(`${a}_verified_badge`),
    `${a}.is_premium as ${a}_is_premium`,
  ] as const;

export interface PersonRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  verified_badge: boolean;
  is_premium: boolean;
}

export const toBadgedPerson = (row: PersonRow): BadgedPersonDto => ({
  id: row.id,
  username: row.username,
  displayName: row.display_name,
  avatarUrl: row.avatar_url,
  isVerified: row.verified_badge,
  isPremium: row.is_premium,
});
