/** How the server answered a file sent by postFile: its status and its JSON body (null when not JSON). */
export interface PostFileAnswer {
  status: number;
  body: unknown;
}

/** Why a file sent by postFile got no answer: the connection failed, or `abort()` was called. */
export class PostFileFailed extends Error {
  constructor(readonly reason: 'network' | 'aborted') {
    super(reason);
  }
}

/**
 * Sends `file` as the raw body of a same-origin POST to `url` (the session cookie and the Origin the
 * CSRF guard checks go with it): an XMLHttpRequest rather than fetch, because only it reports
 * upload progress (0..1; 1 is reported by the caller once it accepts the answer). Resolves with
 * any answer, whatever its status; rejects with PostFileFailed when there is none.
 */
export function postFile(url: string, file: File, onProgress: (fraction: number) => void): { promise: Promise<PostFileAnswer>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<PostFileAnswer>((resolve, reject) => {
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON (a proxy's page): the caller's own words
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new PostFileFailed('network'));
    xhr.onabort = () => reject(new PostFileFailed('aborted'));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}
