import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { PostUploadError, toUploadError } from './tus-upload';

function response(status: number, body: string): HttpResponse {
  return { getStatus: () => status, getHeader: () => undefined, getBody: () => body, getUnderlyingObject: () => null };
}

const request = {
  getMethod: () => 'PATCH',
  getURL: () => 'http://localhost/uploads/abc',
  getHeader: () => undefined,
} as unknown as HttpRequest;

/** What tus-js-client throws: a DetailedError with the request and (when there was one) the answer. */
function tusError(res: HttpResponse | null): DetailedError {
  return Object.assign(new DetailedError('tus: request failed'), { originalRequest: request, originalResponse: res, causingError: null });
}

describe('toUploadError', () => {
  it("shows the server's message under 'Upload failed' and does not retry a refusal", () => {
    const body = JSON.stringify({ error: { code: 'FILE_TOO_LARGE', message: 'File too large - Maximum file size is 10MB', title: 'File too large' } });
    const error = toUploadError(tusError(response(413, body)));
    expect(error).toBeInstanceOf(PostUploadError);
    expect(error.text).toEqual({ title: 'Upload failed', description: 'File too large - Maximum file size is 10MB' });
    expect(error.status).toBe(413);
    expect(error.retryable).toBe(false);
  });

  it("says 'Failed to upload content' when the request never got an answer, and may be retried", () => {
    const error = toUploadError(tusError(null));
    expect(error.text).toEqual({ title: 'Upload failed', description: 'Failed to upload content' });
    expect(error.status).toBeNull();
    expect(error.retryable).toBe(true);
  });

  it('keeps a short plain-text answer, never an HTML page', () => {
    expect(toUploadError(tusError(response(502, 'Bad gateway'))).text.description).toBe('Bad gateway');
    expect(toUploadError(tusError(response(502, '<html>oops</html>'))).text.description).toBe('Failed to upload content');
    expect(toUploadError(tusError(response(502, ''))).retryable).toBe(true);
  });
});
