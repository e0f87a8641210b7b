import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { failedStatus, refuseUnavailableHead, shouldRetryUpload, UnavailableUploadAnswer, UPLOAD_RETRY_DELAYS_MS, UPLOAD_RETRY_SCHEDULE_MS } from './upload-retry';

const requestOf = (method: string) => ({ getMethod: () => method, getURL: () => 'http://localhost/uploads/abc', getHeader: () => undefined }) as unknown as HttpRequest;
const response = (status: number) => ({ getStatus: () => status, getHeader: () => undefined, getBody: () => '', getUnderlyingObject: () => null }) as HttpResponse;

/** What tus-js-client hands onShouldRetry: the request, the answer (null when none), the cause. */
function tusError(status: number | null, cause: Error | null = null): DetailedError {
  return Object.assign(new DetailedError('tus: request failed'), {
    originalRequest: requestOf('PATCH'),
    originalResponse: status === null ? null : response(status),
    causingError: cause,
  });
}

describe('the upload retry rules', () => {
  const lastOrdinary = UPLOAD_RETRY_DELAYS_MS.length - 1;

  it('keeps retrying a 503 (the server temporarily without Redis) past the retries other failures get, for minutes', () => {
    expect(shouldRetryUpload(tusError(503), lastOrdinary + 1)).toBe(true);
    expect(shouldRetryUpload(tusError(503), UPLOAD_RETRY_SCHEDULE_MS.length - 1)).toBe(true);
    const waited = UPLOAD_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThan(5 * 60_000);
  });

  it('gives other server and network failures the ordinary retries only, and never retries a refusal', () => {
    for (const status of [500, 502, 409, 423, null]) {
      expect(shouldRetryUpload(tusError(status), lastOrdinary)).toBe(true);
      expect(shouldRetryUpload(tusError(status), lastOrdinary + 1)).toBe(false);
    }
    for (const status of [400, 401, 403, 404, 413, 415, 429]) expect(shouldRetryUpload(tusError(status), 0)).toBe(false);
  });

  it('makes a HEAD answered 5xx an error to retry (tus-js-client would start the file again as a new upload)', () => {
    expect(() => refuseUnavailableHead(requestOf('HEAD'), response(503))).toThrow(UnavailableUploadAnswer);
    expect(() => refuseUnavailableHead(requestOf('HEAD'), response(200))).not.toThrow();
    expect(() => refuseUnavailableHead(requestOf('HEAD'), response(404))).not.toThrow();
    expect(() => refuseUnavailableHead(requestOf('PATCH'), response(503))).not.toThrow();
    // as tus-js-client reports it: no answer, the refusal as the cause
    const refused = tusError(null, new UnavailableUploadAnswer(503));
    expect(failedStatus(refused)).toBe(503);
    expect(shouldRetryUpload(refused, lastOrdinary + 3)).toBe(true);
  });
});
