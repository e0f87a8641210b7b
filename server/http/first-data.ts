import { createServerSideHelpers } from '@trpc/react-query/server';
import type { Request, Response } from 'express';
import superjson from 'superjson';
import { FEED_INPUT, profilePostsInput } from '../../common/first-data';
import { imageSources, type ImageBox, type ImageSources } from '../../common/image-sources';
import { isReservedUsername } from '../../common/reserved-usernames';
import { readUsernameSegment } from '../../common/username-segment';
import type { PostDto } from '../../common/post-dtos';
import type { ProfileDto } from '../../common/profile-dtos';
import type { AppDeps } from '../../core/deps';
import { createContext } from '../trpc/init';
import { appRouter } from '../trpc/router';

/**
 * A page's first data, put into the HTML the server sends (issue 30 item 2): the answers of the
 * queries the page's route loaders start, computed by the same tRPC procedures with the caller's
 * own context (cookie, session, access rule: a visitor gets a premium post as its blurred
 * preview), dehydrated for React Query and serialised with superjson, the link's transformer.
 * The SPA hydrates its query cache from it before the first render (src/lib/first-data.ts), so
 * the first paint needs no second round trip; the keys are the ones the client's queries use,
 * built from the same inputs (common/first-data.ts).
 *
 * Only successful answers travel: a page whose entity is not found (an unknown, private or hidden
 * profile, a draft or unknown post) leaves its query for the client to ask, which shows the
 * page's 'not found' exactly as before, and the HTML is sent with 404.
 */
export interface FirstData {
  /** React Query's dehydrated state, serialised by superjson ({ json, meta }), as JSON text */
  state: string;
  /** the page's entity was not found (or may not be seen): 404 */
  notFound: boolean;
  /** set when the visitor is anonymous: what a link preview may show */
  profile: ProfileDto | null;
  post: PostDto | null;
  /** the signed-in viewer's id (null for a visitor): whose page this is, for what is kept of it (server-render.ts) */
  viewerId: string | null;
  /** the picture likely to be the page's largest paint, preloaded from the head: the post page's, a signed-in feed's first */
  leadImage: ImageSources | null;
}

/** The route of a path, as the SPA's file routes read it (src/routes). */
export type PageRoute = { kind: 'home' } | { kind: 'profile'; username: string } | { kind: 'post'; id: string } | { kind: 'other' };

export function pageRoute(pathname: string): PageRoute {
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { kind: 'other' };
  }
  if (segments.length === 0) return { kind: 'home' };
  if (segments.length === 2 && segments[0] === 'post' && segments[1]!.trim()) return { kind: 'post', id: segments[1]!.trim() };
  if (segments.length === 1) {
    // as the browser's route and the procedure's schema read it
    const { username } = readUsernameSegment(segments[0]!);
    if (username && !isReservedUsername(username)) return { kind: 'profile', username };
  }
  return { kind: 'other' };
}

/** A post's picture as its card shows it: the image sized to its box, or a locked post's blurred preview. */
function leadImageOf(post: PostDto | null, box: ImageBox): ImageSources | null {
  const media = post?.media;
  if (!post || !media) return null;
  if (!post.viewer.canViewMedia) return media.previewUrl ? { src: media.previewUrl, srcSet: undefined, sizes: undefined } : null;
  return post.mediaKind === 'image' ? imageSources(media, box) : null;
}

/** Profile search params that change what the page asks for first: then the client asks itself. */
const PROFILE_VIEW_PARAMS = ['tab', 'view', 'q'];

export async function loadFirstData(deps: AppDeps, req: Request, res: Response): Promise<FirstData> {
  const ctx = await createContext(deps, { req, res });
  const helpers = createServerSideHelpers({ router: appRouter, ctx, transformer: superjson });
  const route = pageRoute(req.path);
  const first: Omit<FirstData, 'state'> = { notFound: false, profile: null, post: null, viewerId: ctx.user?.id ?? null, leadImage: null };
  const found = <T>(promise: Promise<T>): Promise<T | null> =>
    promise.catch((error: unknown) => {
      if ((error as { code?: string }).code === 'NOT_FOUND' || (error as { code?: string }).code === 'BAD_REQUEST') first.notFound = true;
      return null;
    });

  const work: Promise<unknown>[] = [helpers.auth.me.prefetch()];
  if (route.kind === 'home') {
    work.push(
      helpers.creators.featured.prefetch(),
      helpers.posts.feed.fetchInfinite(FEED_INPUT).then(
        // signed out, the landing's hero fills the first screen; signed in, the feed's first post does
        (feed) => (first.leadImage = first.viewerId !== null ? leadImageOf(feed.pages[0]?.items[0] ?? null, 'feed') : null),
        () => null,
      ),
    );
    // the shell's badges of a signed-in home feed, which is server-rendered (server-render.ts):
    // painted with the page, and the same when the browser adopts it
    if (ctx.user) work.push(helpers.messages.unreadCount.prefetch(), helpers.notifications.unreadCount.prefetch());
  } else if (route.kind === 'profile') {
    work.push(found(helpers.profiles.byUsername.fetch({ username: route.username })).then((p) => (first.profile = p)));
    if (!PROFILE_VIEW_PARAMS.some((name) => name in req.query)) {
      work.push(helpers.profiles.posts.prefetchInfinite(profilePostsInput(route.username, 'all', undefined)));
    }
  } else if (route.kind === 'post') {
    work.push(
      found(helpers.posts.byId.fetch({ id: route.id })).then((p) => {
        first.post = p;
        first.leadImage = leadImageOf(p, 'detail');
      }),
      helpers.comments.list.prefetch({ postId: route.id }),
    );
  }
  await Promise.all(work);
  const state = helpers.dehydrate({ shouldDehydrateQuery: (query) => query.state.status === 'success' });
  // a link preview describes what everyone may see, never what this viewer may
  if (ctx.user) {
    first.profile = null;
    first.post = null;
  }
  return { state: JSON.stringify(state), ...first };
}
