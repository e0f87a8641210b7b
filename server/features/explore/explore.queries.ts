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
export async function findExplorePage(
  db: DB,
  opts: { viewerId: string | null; q: string | null; categories: readonly string[]; cursor: FeedCursor | null; limit: number },
) {
  const { viewerId, q, categories, cursor, limit } = opts;
  const params = { viewerId, q, pattern: q ? containsPattern(q) : null, categories, cursor: cursor ? { createdAt: cursor.createdAt, id: cursor.id } : null, limit };
  if (q === null) return explorePage(db, params);
  // A search's matches are planned with its words each time (a rare word wants the search index,
  // a common one the newest-first walk); the cards of the page's posts, whose plan is the same
  // whatever was searched, come from a prepared statement: two round trips, but PostgreSQL no
  // longer plans the cards' dozen subqueries for every search.
  const hits = await searchHits(db, params);
  if (hits.length === 0) return [];
  return cardsByIds(db, { viewerId, ids: `{${hits.map((h) => h.id).join(',')}}` });
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

// Explore's statement without a search is built and compiled once per shape (signed in or not,
// how many categories, first page or not) and prepared; a search's matches are compiled once per
// shape too, but planned per call
const explorePage = statementShape((db, { viewerId, categories, cursor, limit }: ExploreParams) => cardsQuery(db, viewerId, newestFirst(filtered(db, categories, cursor), limit)), {
  literals: ['limit'],
});

const searchHits = statementShape(
  (db, { q, pattern, categories, cursor, limit }: ExploreParams) => {
    const byCreator = newestFirst(
      filtered(db, categories, cursor).where(sql<SqlBool>`(lower(pr.username) like lower(${pattern}) or lower(pr.display_name) like lower(${pattern}))`),
      limit,
    );
    const byText = newestFirst(filtered(db, categories, cursor).where(sql<SqlBool>`posts.search @@ websearch_to_tsquery('english', ${q})`), limit);
    const hits = db
      .selectFrom(byCreator.as('by_creator'))
      .selectAll()
      .union(db.selectFrom(byText.as('by_text')).selectAll());
    return newestFirst(db.selectFrom(hits.as('hits')).select(['hits.id', 'hits.sort_at']), limit);
  },
  { literals: ['limit'], prepare: () => false },
);

/** The cards of a search's page, by the posts' ids (`{id,...}`: one array parameter, so one statement for every page size). */
const cardsByIds = statementShape((db, { viewerId, ids }: { viewerId: string | null; ids: string }) =>
  cardsQuery(
    db,
    viewerId,
    db
      .selectFrom('posts')
      .select(publishedKeys)
      .where(sql<SqlBool>`posts.id = any(${ids}::uuid[])`)
      .where('posts.status', '=', 'published'),
  ),
);

const newestFirst = <Q extends PageKeys>(query: Q, limit: number) => query.orderBy('sort_at', 'desc').orderBy('id', 'desc').limit(limit);

/** Published posts of creators everyone may see, with the chips, after the cursor. */
const filtered = (db: DB, categories: readonly string[], cursor: ExploreParams['cursor']) =>
  postsWithPrivacy(db)
    .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
    .select(publishedKeys)
    .where('posts.status', '=', 'published')
    .where(visiblePostWhere(null))
    .$if(categories.length > 0, (b) => b.where(sql<SqlBool>`pr.categories && array[${sql.join(categories)}]::text[]`))
    .$if(cursor !== null, (b) => b.where(pageAfter(cursor!)));
