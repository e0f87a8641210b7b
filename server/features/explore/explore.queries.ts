import { sql, type SqlBool } from 'kysely';
import type { FeedCursor } from '../../../common/post-schemas';
import type { DB } from '../../../core/db/kysely';
import { statementShape } from '../../../core/db/statement-shape';
import { visiblePostWhere } from '../../../domain/access/access';
import { containsPattern } from '../../shared/contains-pattern';
import { cardsQuery, pageAfter, postsWithPrivacy, publishedKeys, type PageKeys } from '../../shared/post-cards/post-cards.queries';

/**
 * One Explore page: published posts of creators everyone may see (private and hidden never,
 * not even to their owner), newest published first, keyset-paged on (published_at, id).
 *
 * - `categories`: the creator has any of them (`categories && array[...]`, profiles_categories_idx).
 * - `q`: the creator's username or display name contains it in any case (the trigram indexes on
 *   lower(username) and lower(display_name)), or the post's text matches its stemmed words (the
 *   GIN index on `search`).
 *
 * With `q`, each of the two matches is its own index-driven branch that stops at `limit` rows
 * after the cursor, and the page is the newest `limit` of their union: an OR across two tables
 * in one WHERE would leave the planner nothing but a walk over every published post.
 */
export function findExplorePage(
  db: DB,
  opts: { viewerId: string | null; q: string | null; categories: readonly string[]; cursor: FeedCursor | null; limit: number },
) {
  const { viewerId, q, categories, cursor, limit } = opts;
  return explorePage(db, {
    viewerId,
    q,
    pattern: q ? containsPattern(q) : null,
    categories,
    cursor: cursor ? { createdAt: cursor.createdAt, id: cursor.id } : null,
    limit,
  });
}

// a type, not an interface: statementShape's parameters are a plain record
type ExploreParams = {
  viewerId: string | null;
  q: string | null;
  /** `q` as a "contains" pattern: its own parameter, as the stand-in of `q` cannot be escaped */
  pattern: string | null;
  categories: readonly string[];
  cursor: { createdAt: string; id: string } | null;
  limit: number;
};

// Explore's statement (a union of two branches with q) is built and compiled once per shape:
// signed in or not, searched or not, how many categories, first page or not
const explorePage = statementShape((db, { viewerId, q, pattern, categories, cursor, limit }: ExploreParams) => {
  const newestFirst = <Q extends PageKeys>(query: Q) => query.orderBy('sort_at', 'desc').orderBy('id', 'desc').limit(limit);
  const filtered = () =>
    postsWithPrivacy(db)
      .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
      .select(publishedKeys)
      .where('posts.status', '=', 'published')
      .where(visiblePostWhere(null))
      .$if(categories.length > 0, (b) => b.where(sql<SqlBool>`pr.categories && array[${sql.join(categories)}]::text[]`))
      .$if(cursor !== null, (b) => b.where(pageAfter(cursor!)));

  if (q === null) return cardsQuery(db, viewerId, newestFirst(filtered()));
  const byCreator = newestFirst(filtered().where(sql<SqlBool>`(lower(pr.username) like lower(${pattern}) or lower(pr.display_name) like lower(${pattern}))`));
  const byText = newestFirst(filtered().where(sql<SqlBool>`posts.search @@ websearch_to_tsquery('english', ${q})`));
  const hits = db
    .selectFrom(byCreator.as('by_creator'))
    .selectAll()
    .union(db.selectFrom(byText.as('by_text')).selectAll());
  return cardsQuery(db, viewerId, newestFirst(db.selectFrom(hits.as('hits')).select(['hits.id', 'hits.sort_at'])));
}, { literals: ['limit'], prepare: ({ q }) => q === null });
