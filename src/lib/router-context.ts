import type { QueryClient } from '@tanstack/react-query';
import type { createTRPCQueryUtils } from '@trpc/react-query';
import type { ServerPage } from '../../common/first-data';
import type { AppRouter } from '../../server/trpc/router';

/** tRPC helpers bound to the app's QueryClient, for loaders: `context.trpcUtils.creators.featured.prefetch()`. */
export type TrpcUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;

/** What every route's beforeLoad and loader receive as `context`. */
export interface RouterContext {
  queryClient: QueryClient;
  trpcUtils: TrpcUtils;
  /** Only on the server (src/entry-server.tsx): what the page's loader found for its HTML (common/first-data.ts). */
  serverPage?: ServerPage;
}
