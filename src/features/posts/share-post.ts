import { POST_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';

export function postUrl(postId: string): string {
  return new URL(`/post/${encodeURIComponent(postId)}`, window.location.origin).href;
}

/**
 * Share (spec part 1 §2): the native share sheet with 'Check out this post' and the post's URL
 * where the browser has one; otherwise (or if it fails for another reason than the user closing
 * it) the URL goes to the clipboard with 'Link copied to clipboard'.
 */
export async function sharePost(postId: string): Promise<void> {
  const url = postUrl(postId);
  const data = { title: POST_TEXTS.shareTitle, url };
  if (typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    notify.success({ title: POST_TEXTS.linkCopied });
  } catch {
    // no clipboard either (an insecure page): show the link so it can be copied by hand
    notify.info({ title: POST_TEXTS.shareTitle, description: url });
  }
}
