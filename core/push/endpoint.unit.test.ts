import { describe, expect, it } from 'vitest';
import { pushEndpointAllowed, pushTarget } from './endpoint';

describe('pushEndpointAllowed', () => {
  it('lets the push services through and nothing on the machine or its network', () => {
    for (const ok of ['https://fcm.googleapis.com/fcm/send/abc', 'https://updates.push.services.mozilla.com/wpush/v2/x', 'https://web.push.apple.com/QA']) {
      expect(pushEndpointAllowed(ok, false), ok).toBe(true);
    }
    for (const bad of [
      'http://fcm.googleapis.com/x', 'https://127.0.0.1/x', 'https://localhost/x', 'https://[::1]/x', 'https://10.1.2.3/x', 'https://169.254.169.254/',
      'https://[fd00::1]/x', 'https://redis/x', 'https://db.internal/x', 'https://nas.local/x', 'https://user:pw@fcm.googleapis.com/x', 'ftp://a.b/x', 'not a url',
    ]) {
      expect(pushEndpointAllowed(bad, false), bad).toBe(false);
    }
  });

  it('takes a trailing dot off the name before the checks, and sends to the name without it', () => {
    for (const bad of [
      'https://localhost./x', 'https://LOCALHOST../x', 'https://metadata.google.internal./computeMetadata/v1/', 'https://db.internal./x', 'https://nas.local./x',
      'https://printer./x', 'https://127.0.0.1./x', 'https://169.254.169.254./latest', 'https://[::ffff:127.0.0.1]/x', 'https://[::ffff:a9fe:a9fe]/x', 'https://./x',
    ]) {
      expect(pushEndpointAllowed(bad, false), bad).toBe(false);
    }
    expect(pushTarget('https://fcm.googleapis.com./fcm/send/abc', false)).toEqual({ url: new URL('https://fcm.googleapis.com/fcm/send/abc'), local: false });
    expect(pushTarget('http://localhost.:4000/push/1', true)).toEqual({ url: new URL('http://localhost:4000/push/1'), local: true });
    expect(pushTarget('http://localhost.:4000/push/1', false)).toBeNull();
  });

  it('with the tests\' setting, also the loopback over http, and still nothing else private', () => {
    expect(pushEndpointAllowed('http://127.0.0.1:4000/push/1', true)).toBe(true);
    expect(pushEndpointAllowed('http://localhost:4000/push/1', true)).toBe(true);
    expect(pushEndpointAllowed('http://10.0.0.1/push', true)).toBe(false);
    expect(pushEndpointAllowed('http://[::ffff:127.0.0.1]:4000/push', true)).toBe(false);
    expect(pushEndpointAllowed('http://127.0.0.1:4000/push/1', false)).toBe(false);
  });
});
