import type { CreatorCardDto } from '../../../common/profile-dtos';
import type { AppDeps } from '../../../core/deps';
import { toBadgedPerson } from '../../../domain/people/person-columns';
import { findCreatorCards, type CreatorCardFilter } from './creator-cards.queries';

/**
 * Creator cards (the featured strip, Explore): creators who may be listed, with their real
 * active subscriber counts (the spec's fixed lookup is not copied; see DESIGN.md).
 */
export async function creatorCards(deps: Pick<AppDeps, 'db'>, filter: CreatorCardFilter): Promise<CreatorCardDto[]> {
  const rows = await findCreatorCards(deps.db, filter);
  return rows.map((row) => ({
    categories: row.categories,
    subscriberCount: Number(row.subscriber_count),
    ...toBadgedPerson(row),
  }));
}
