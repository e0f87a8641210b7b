import { sql } from 'kysely';
import type { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION } from '../../common/texts';
import { appRouter } from '../../server/trpc/router';
import { makeUser, type MadeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import type { TestClient } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

/**
 * Every cursor and date input is checked in its schema (common/cursor-schema.ts): an impossible
 * date answers 400, never a 500 from the database.
 */
const app = useFileServer();

/** What each procedure with a cursor needs besides it; a new one without an entry fails the walk below. */
const BASE_INPUTS: Record<string, (who: { other: MadeUser; me: MadeUser }) => Record<string, unknown>> = {
  'posts.feed': () => ({}),
  'bookmarks.list': () => ({}),
  'purchases.mine': () => ({}),
  'explore.search': () => ({}),
  'profiles.posts': ({ other }) => ({ username: other.username }),
  'profiles.drafts': () => ({}),
  'messages.chatList': () => ({}),
  'messages.thread': ({ other }) => ({ username: other.username }),
  'messages.adminReports': () => ({}),
  'creatorStats.subscribers': () => ({}),
  'earnings.payouts': () => ({}),
  'profiles.scheduled': () => ({}),
  'notifications.list': () => ({}),
  'trials.listMine': () => ({}),
  'massMessages.list': () => ({}),
};

/** The object shape of a procedure's input, through .default() / .optional() wrappers. */
function inputShape(schema: unknown): Record<string, unknown> | null {
  let current = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown; def?: { innerType?: unknown } } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.shape) return current.shape;
    current = (current.def?.innerType ?? current.unwrap?.()) as typeof current;
  }
  return null;
}

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: z.ZodType[] } }>;
const withCursor = Object.entries(procedures)
  .filter(([, p]) => p._def.inputs.some((input) => Object.hasOwn(inputShape(input) ?? {}, 'cursor')))
  .map(([path]) => path);

/** Times no clock shows: February 30th, month 13, hour 25, second 60, hour 24, year 0. */
// not a clock: dates no calendar has, refused as input
const IMPOSSIBLE = ['2026-02-30T10:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T25:00:00Z', '2026-01-01T12:00:60.5Z', '2026-01-01T24:00:00.000000Z', '0000-01-01T00:00:00Z'];
const ID = '00000000-0000-4000-8000-000000000000';

/** The cursor as each list hands it out: feed-like lists an object, messages `at~id`, subscribers `at|id`. */
function cursorFor(path: string, at: string): unknown {
  if (path.startsWith('messages.') || path === 'notifications.list' || path === 'massMessages.list') return `${at}~${ID}`;
  if (path === 'creatorStats.subscribers' || path === 'trials.listMine') return `${at}|${ID}`;
  if (path === 'earnings.payouts') return { at, id: ID };
  return { createdAt: at, id: ID };
}

let me: MadeUser;
let other: MadeUser;
let asMe: TestClient;
beforeAll(async () => {
  me = await makeUser(app.deps.db, { isCreator: true });
  other = await makeUser(app.deps.db, { isCreator: true });
  await sql`update users set role = 'admin' where id = ${me.id}`.execute(app.deps.db);
  asMe = await clientAs(app, me.id);
});

async function queryStatus(path: string, input: unknown) {
  const res = await asMe.fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  const body = (await res.json()) as { error?: { json: { message: string; data: { code: string } } } };
  return { status: res.status, error: body.error?.json ?? null };
}

describe('impossible dates in cursors (issue 23 item 10)', () => {
  it('finds every procedure with a cursor, each with an input to try', () => {
    expect(withCursor).toEqual(expect.arrayContaining(['messages.thread', 'creatorStats.subscribers', 'posts.feed']));
    expect(withCursor.filter((path) => !Object.hasOwn(BASE_INPUTS, path))).toEqual([]);
  });

  it('answers 400 Invalid cursor for each impossible date in every cursor, and a real one still pages', async () => {
    for (const path of withCursor) {
      const base = BASE_INPUTS[path]!({ other, me });
      // the procedure answers at all with a cursor that names a real time
      // not a clock: a real past time, only to see the procedure page
      expect((await queryStatus(path, { ...base, cursor: cursorFor(path, '2026-01-01T12:00:00.123456Z') })).status, path).toBe(200);
      for (const at of IMPOSSIBLE) {
        const answer = await queryStatus(path, { ...base, cursor: cursorFor(path, at) });
        expect(answer.status, `${path} ${at}`).toBe(400);
        expect(answer.error?.data.code, `${path} ${at}`).toBe('BAD_REQUEST');
        expect(answer.error?.message, `${path} ${at}`).toBe('Invalid cursor');
      }
    }
  });

  it('a date of birth in year 0 is refused at sign-up with the form words, not a 500', async () => {
    const res = await app.client().fetch('/trpc/auth.signUp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        json: { email: 'year0@example.com', password: 'long-enough-password', username: 'yearzero', firstName: 'Y', surname: 'Zero', dateOfBirth: '0000-01-01', acceptTerms: true },
      }),
    });
    const body = (await res.json()) as { error: { json: { message: string } } };
    expect(res.status).toBe(400);
    expect(body.error.json.message).toBe(VALIDATION.dateOfBirthRequired);
  });
});
