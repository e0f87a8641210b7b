/**
 * PLACEHOLDER — the home feed (spec part 1 §2 "Home feed") is built in a later issue.
 * It marks where the feed goes on / and deliberately renders no posts, counts or messages.
 */
export function FeedSection() {
  return <section aria-label="Feed" data-placeholder="feed" className="empty:hidden" />;
}
