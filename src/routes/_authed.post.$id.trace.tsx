import { createFileRoute } from '@tanstack/react-router';
import { tracedPostOptions } from '../features/forensics/forensics-queries';
import { TraceScreen } from '../features/forensics/trace-screen';

/**
 * /post/$id/trace: Trace a leak (issue 49 item 5), for the post's creator and admins; behind
 * _authed (a visitor signs in first). Which of them may is the server's answer to forensics.traces.
 */
export const Route = createFileRoute('/_authed/post/$id/trace')({
  loader: ({ context: { trpcUtils: utils }, params }) => {
    void utils.forensics.traces.prefetch({ postId: params.id });
    void utils.posts.byId.prefetch({ id: params.id }, tracedPostOptions);
  },
  component: TraceRoute,
});

function TraceRoute() {
  const { id } = Route.useParams();
  return <TraceScreen postId={id} />;
}
