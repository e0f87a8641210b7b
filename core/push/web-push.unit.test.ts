import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { isIP, type AddressInfo, type LookupFunction } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateVapidKeys, sendWebPush, type StoredPushSubscription } from './web-push';

// Issue 46 item 1: the worker never requests an address the user chose. Each case goes through
// sendWebPush, the worker's sending path, against servers on the loopback that count every
// connection they get: "refused" means the target saw none.

const vapid = { subject: 'mailto:push-tests@example.com', ...generateVapidKeys() };
const subscription = (endpoint: string): StoredPushSubscription => ({
  endpoint,
  p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
  auth: randomBytes(16).toString('base64url'),
});

/** An address the worker must never reach: counts TCP connections (a TLS hello to it counts too) and requests. */
let target: Server;
let targetConnections = 0;
const targetRequests: string[] = [];
/** A "push service" that answers every POST with the status and Location the test sets. */
let pushService: Server;
const pushRequests: string[] = [];
let answer: { status: number; location?: string } = { status: 201 };
const portOf = (server: Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  target = createServer((req, res) => {
    targetRequests.push(`${req.method} ${req.url}`);
    res.writeHead(200).end('internal');
  });
  target.on('connection', () => (targetConnections += 1));
  pushService = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      pushRequests.push(`${req.method} ${req.url}`);
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end();
    });
  });
  await Promise.all([target, pushService].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(async () => {
  await Promise.all([target, pushService].map((s) => new Promise((r) => s.close(r))));
});
beforeEach(() => {
  targetConnections = 0;
  targetRequests.length = 0;
  pushRequests.length = 0;
  answer = { status: 201 };
});

/** A resolver that answers these addresses for any name (Node asks for all of them), and notes each question. */
function resolvingTo(addresses: string[], asked: string[]): LookupFunction {
  const answers = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    process.nextTick(() => (options.all ? callback(null, answers) : callback(null, answers[0]!.address, answers[0]!.family)));
  }) as unknown as LookupFunction;
}

/** The target saw nothing at all: no connection, no request. */
const nothingReachedTarget = () => expect({ connections: targetConnections, requests: targetRequests }).toEqual({ connections: 0, requests: [] });
/** Lets a redirect that would be followed reach the target before the test looks. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('sendWebPush: requests only the push service, at an address it checked', () => {
  it('does not follow a redirect (301, 302, 303, 307, 308): the 3xx is a failed delivery and the Location gets no request', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      answer = { status, location: `http://127.0.0.1:${portOf(target)}/latest/meta-data/${status}` };
      const endpoint = `http://127.0.0.1:${portOf(pushService)}/push/${randomUUID()}`;
      // the tests' setting lets the loopback through, so only the redirect rule stands between
      await expect(sendWebPush(vapid, subscription(endpoint), '{}', { allowLocal: true }), String(status)).rejects.toThrow(`push service answered ${status}`);
      await settle();
      expect(pushRequests, String(status)).toEqual([`POST ${new URL(endpoint).pathname}`]);
      nothingReachedTarget();
      pushRequests.length = 0;
    }
  });

  it('refuses a public-looking name that resolves to the loopback, the metadata address or a private one, and connects nowhere', async () => {
    for (const [address, allowLocal] of [
      ['127.0.0.1', false],
      ['127.0.0.1', true], // the tests' setting is for loopback names only, never a name that resolves there
      ['169.254.169.254', false],
      ['10.0.0.8', false],
      ['100.64.0.1', false],
      ['0.0.0.0', false],
      ['fd00:ec2::254', false],
      ['fe80::1', false],
      ['::1', false],
    ] as const) {
      const asked: string[] = [];
      const endpoint = `https://push.example.com:${portOf(target)}/push/${randomUUID()}`;
      await expect(sendWebPush(vapid, subscription(endpoint), '{}', { allowLocal, lookup: resolvingTo([address], asked) }), address).rejects.toThrow(/is not allowed/);
      // the name was resolved (by the sending path itself) and its answer refused
      expect(asked, address).toEqual(['push.example.com']);
    }
    await settle();
    nothingReachedTarget();
  });

  it('refuses a name when any one of its addresses is private, even with a public one first', async () => {
    const asked: string[] = [];
    const endpoint = `https://push.example.com:${portOf(target)}/push/${randomUUID()}`;
    await expect(sendWebPush(vapid, subscription(endpoint), '{}', { lookup: resolvingTo(['93.184.216.34', '127.0.0.1'], asked) })).rejects.toThrow(/127\.0\.0\.1.*is not allowed/);
    await settle();
    nothingReachedTarget();
  });

  it('refuses an IPv4 address mapped in IPv6, as a name\'s answer or written in the endpoint', async () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:7f00:1', '64:ff9b::7f00:1']) {
      const asked: string[] = [];
      const endpoint = `https://push.example.com:${portOf(target)}/push/${randomUUID()}`;
      await expect(sendWebPush(vapid, subscription(endpoint), '{}', { lookup: resolvingTo([address], asked) }), address).rejects.toThrow(/is not allowed/);
      expect(asked, address).toEqual(['push.example.com']);
    }
    for (const allowLocal of [false, true]) {
      expect(await sendWebPush(vapid, subscription(`https://[::ffff:127.0.0.1]:${portOf(target)}/push`), '{}', { allowLocal })).toBe('gone');
      expect(await sendWebPush(vapid, subscription(`http://[::ffff:127.0.0.1]:${portOf(target)}/push`), '{}', { allowLocal })).toBe('gone');
    }
    await settle();
    nothingReachedTarget();
  });

  it('takes a trailing dot off the name before any check: localhost. and metadata.google.internal. are never resolved nor sent to', async () => {
    for (const endpoint of [
      `https://localhost.:${portOf(target)}/push`,
      `https://LOCALHOST..:${portOf(target)}/push`,
      `https://metadata.google.internal.:${portOf(target)}/computeMetadata/v1/`,
      `https://db.internal./x`,
      `https://nas.local./x`,
      `https://127.0.0.1.:${portOf(target)}/push`,
    ]) {
      const asked: string[] = [];
      expect(await sendWebPush(vapid, subscription(endpoint), '{}', { lookup: resolvingTo(['127.0.0.1'], asked) }), endpoint).toBe('gone');
      expect(asked, endpoint).toEqual([]);
    }
    await settle();
    nothingReachedTarget();
  });

  it('resolves the name once, and connects to the address it checked: a second answer cannot move the connection', async () => {
    // the first answer is the (allowed) loopback; any later question would be answered with the target's private network
    const asked: string[] = [];
    const answers = [resolvingTo(['127.0.0.1'], asked), resolvingTo(['10.9.8.7'], asked)];
    const lookup = ((...args: Parameters<LookupFunction>) => (answers.length > 1 ? answers.shift()! : answers[0]!)(...args)) as LookupFunction;
    const endpoint = `http://localhost:${portOf(pushService)}/push/${randomUUID()}`;
    expect(await sendWebPush(vapid, subscription(endpoint), '{"kind":"test"}', { allowLocal: true, lookup })).toBe('sent');
    expect(asked).toEqual(['localhost']);
    expect(pushRequests).toEqual([`POST ${new URL(endpoint).pathname}`]);
  });

  it('still sends to the tests\' push service with PUSH_ALLOW_LOCAL_ENDPOINTS, and to nothing local without it', async () => {
    const endpoint = `http://127.0.0.1:${portOf(pushService)}/push/${randomUUID()}`;
    expect(await sendWebPush(vapid, subscription(endpoint), '{}', { allowLocal: true })).toBe('sent');
    expect(await sendWebPush(vapid, subscription(endpoint), '{}', { allowLocal: false })).toBe('gone');
    answer = { status: 410 };
    expect(await sendWebPush(vapid, subscription(endpoint), '{}', { allowLocal: true })).toBe('gone');
    expect(pushRequests).toHaveLength(2);
  });
});
