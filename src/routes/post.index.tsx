import { createFileRoute } from '@tanstack/react-router';
import { POST_TEXTS } from '../../common/texts';
import { usePageTitle } from '../lib/page-title';
import { PostMessage } from './-components/post-message';

/** /post without an id (spec part 1 §5: 'the post route needs an id'). */
export const Route = createFileRoute('/post/')({
  component: PostIdRequired,
});

function PostIdRequired() {
  usePageTitle(POST_TEXTS.idRequired);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-6 pb-10 md:px-6 md:pt-8">
      <PostMessage title={POST_TEXTS.idRequired} />
    </div>
  );
}
