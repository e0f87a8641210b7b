import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ProfileVisibility } from '../../common/enums';
import { canSeeProfile, profileVisibleToAllWhere } from './access';

/**
 * Who may be listed publicly (the landing page's featured creators, Explore's creator cards): a
 * creator whose profile everyone may see (`canSeeProfile` for nobody in particular). Private,
 * hidden and 'friends' creators are never listed, not even to themselves (a friends-only profile
 * is for its subscribers, who reach it from their own subscriptions); a missing
 * privacy_settings row is listed, as it is public.
 */
export function mayBeListed(profile: { id: string; isCreator: boolean; visibility: ProfileVisibility | null }): boolean {
  return profile.isCreator && canSeeProfile(null, profile.id, profile.visibility);
}

/** `mayBeListed` as SQL, over `profiles` aliased `pr` left-joined to its privacy_settings as `ps`. */
export function listedCreatorWhere(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(pr.is_creator and ${profileVisibleToAllWhere()})`;
}
