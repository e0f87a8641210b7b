/**
 * The floor's statement for a page of posts: the session, the page, creator cards, the three
 * counts, liked, bookmarked, media entitlement and media variants in one statement and one
 * round trip. `pageSource` is the FROM/WHERE that picks the page's posts (aliases p, pr). Newest
 * published first, as the app's lists are (posts_feed_idx and posts_creator_published_idx are on
 * published_at): a floor ordered by created_at sorted every matching post and was slower than the
 * app it measured (the feed's floor served 196 req/s beside the app's 427).
 * $1 is the session id.
 */
export function floorPageStatement(pageSource: string, limit: number): string {
  return `
  with v as (select user_id from sessions where id = $1 and expires_at > now()),
  page as (
    select p.id, p.creator_id, p.title, p.post_text, p.hashtags, p.is_premium, p.is_nsfw, p.status, p.media_kind, p.created_at, p.published_at,
           pr.username, pr.display_name, pr.avatar_url, pr.is_verified, pr.is_premium as creator_is_premium
    ${pageSource}
    order by p.published_at desc, p.id desc
    limit ${limit}
  )
  select page.*,
    (select count(*) from post_likes l where l.post_id = page.id) as likes,
    (select count(*) from comments c where c.post_id = page.id) as comments,
    (select count(*) from bookmarks b where b.post_id = page.id) as bookmarks,
    exists (select 1 from post_likes l where l.post_id = page.id and l.user_id = (select user_id from v)) as liked,
    exists (select 1 from bookmarks b where b.user_id = (select user_id from v) and b.post_id = page.id) as bookmarked,
    (page.creator_id = (select user_id from v) or not page.is_premium or exists (
      select 1 from subscriptions s join subscription_tiers t on t.id = s.tier_id
      where s.subscriber_id = (select user_id from v) and s.status = 'active' and s.current_period_end > now() and t.creator_id = page.creator_id
    )) as can_view_media,
    (select json_agg(json_build_object('position', m.position, 'variant', m.variant, 'content_type', m.content_type, 'width', m.width, 'height', m.height, 'duration_seconds', m.duration_seconds) order by m.position)
       from media_files m where m.post_id = page.id) as media
  from page
  order by page.published_at desc, page.id desc`;
}
