/**
 * What a post is called wherever it needs a name: a card's heading, an image's alt text, the
 * link that opens it, a confirmation and a download's file name. Titles are optional, so an
 * untitled post is named after its creator, the same way on every screen and in every file.
 */
export interface NamedPost {
  title: string | null;
  creator: { displayName: string | null; username: string };
}

export function postName(post: NamedPost): string {
  const title = post.title?.trim();
  if (title) return title;
  return `Post by ${post.creator.displayName?.trim() || post.creator.username}`;
}
