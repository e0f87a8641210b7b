import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ProfileVisibility } from '../../common/enums';
import { canSeeProfile, profileVisibleToAllWhere } from './access';

/**
 * Who may be listed publicly (the landing page's featured creators, Explore's creator cards): a
 * creator whose profile everyone may see (`canSeeProfile` for nobody in particular). Private and
 * hidden creators are never listed, not even to themselves; 'friends' and a missing
 * privacy_settings row are listed, as their profiles are visible.
 */
export function mayBeListed(profile: { id: string; isCreator: boolean; visibility: ProfileVisibility | null }): boolean {
  return profile.isCreator && canSeeProfile(null, profile.id, profile.visibility);
}

/** `mayBeListed` as SQL, over `profiles` aliased `pr` left-joined to its privacy_settings as `ps`. */
export function listedCreatorWhere(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(pr.is_creator and ${profileVisibleToAllWhere()})`;
}
