import { downloadFileName } from '../../../common/media';
import { postName } from '../../../common/post-name';
import { POST_TEXTS } from '../../../common/texts';
import type { Post } from '../../lib/post-cache';
import { notify } from '../../lib/toast';

/** `filename="..."` (or RFC 5987 `filename*=UTF-8''...`) of a Content-Disposition header. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  // never a path: the browser would ignore it, but be explicit
  return name ? (name.split(/[\\/]/).pop() ?? null) : null;
}

async function failureMessage(response: Response): Promise<string> {
  let message = '';
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    message = body.error?.message ?? '';
  } catch {
    // not JSON
  }
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return message ? `${message} (${status})` : `Request failed with status ${status}`;
}

/**
 * Save Media (spec part 1 §7 "Download", §8): fetches the authorised download with the session
 * cookie, saves the blob under the name from Content-Disposition (or `<post name>.<ext>` from the
 * content type), and says 'Download started'; a failure says 'Download failed' with its reason
 * (a refused fetch reports the status) or 'Unable to download the file'.
 */
export async function saveMedia(post: Post): Promise<void> {
  const url = post.media?.downloadUrl;
  try {
    if (!url) throw new Error('');
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(await failureMessage(response));
    const blob = await response.blob();
    const contentType = blob.type || response.headers.get('Content-Type') || post.media?.contentType || '';
    const name = fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? downloadFileName(postName(post), contentType, post.id);
    const href = URL.createObjectURL(blob);
    const anchor = document.createElement('a');
    anchor.href = href;
    anchor.download = name;
    anchor.style.display = 'none';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    notify.success({ title: POST_TEXTS.downloadStarted, description: name });
  } catch (error) {
    notify.error({
      title: POST_TEXTS.downloadFailedTitle,
      description: (error instanceof Error && error.message) || POST_TEXTS.downloadFailedFallback,
    });
  }
}
