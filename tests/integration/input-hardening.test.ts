import { readdir } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVER_TEXTS, VALIDATION } from '../../common/texts';
import { UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { jpegWithExif } from '../helpers/media-fixtures';
import type { TestClient, TestServer } from '../helpers/test-server';
import { startTestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusCreate, tusHead, tusPatch, uploadFields } from '../helpers/tus';

/**
 * Text PostgreSQL cannot store (U+0000, other control characters, lone surrogates) is refused by
 * the input schemas with a clear 400, and no answer ever carries the database's own words: the
 * requests go over raw HTTP so the whole body can be searched for them.
 */

let app: TestServer;
let creator: MadeUser;
let asCreator: TestClient;
let fan: MadeUser;
let asFan: TestClient;
beforeAll(async () => {
  // no media workers: a finished upload stays 'processing'
  app = await startTestServer({ workerQueues: ['mail', 'maintenance'] });
  creator = await makeUser(app.deps.db, { isCreator: true });
  asCreator = await clientAs(app, creator.id);
  fan = await makeUser(app.deps.db);
  asFan = await clientAs(app, fan.id);
});
afterAll(async () => {
  await app?.close();
});

const NUL = '\u0000';
const CONTROL = VALIDATION.controlCharacters;
/** PostgreSQL's words for a NUL in text; the net below must never let them out */
const DATABASE_WORDS = /invalid byte sequence|encoding|0x00|unsupported unicode|cannot be converted|sqlstate|relation|syntax/i;

interface RawAnswer {
  status: number;
  text: string;
  /** the tRPC error, when there is one */
  error: { message: string; code: number; data: { code: string; httpStatus: number; stack?: unknown; validation: { messages: string[] } | null } } | null;
}

async function answerOf(res: Response): Promise<RawAnswer> {
  const text = await res.text();
  const body = JSON.parse(text) as { error?: { json: RawAnswer['error'] } };
  return { status: res.status, text, error: body.error?.json ?? null };
}

const mutate = async (client: TestClient, path: string, input: unknown) =>
  answerOf(await client.fetch(`/trpc/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ json: input }) }));

const query = async (client: TestClient, path: string, input: unknown) =>
  answerOf(await client.fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`));

function expectRefused(answer: RawAnswer, message: string = CONTROL) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.error?.data.code).toBe('BAD_REQUEST');
  expect(answer.error?.message).toBe(message);
  expect(answer.error?.data.validation?.messages).toEqual([message]);
  expect(answer.text).not.toMatch(DATABASE_WORDS);
}

/**
 * Makes every insert into `table` fail in the database with this SQLSTATE and message, for the
 * length of `run`: a real database error inside a real procedure, whatever its input schema says.
 */
async function withFailingInsert<T>(table: 'comments' | 'posts', sqlState: string, message: string, run: () => Promise<T>): Promise<T> {
  await sql`create or replace function test_refuse_insert() returns trigger language plpgsql as $$
    begin raise exception using errcode = tg_argv[0], message = tg_argv[1]; end $$`.execute(app.deps.db);
  await sql`create trigger test_refuse_insert before insert on ${sql.table(table)} for each row
    execute function test_refuse_insert(${sql.lit(sqlState)}, ${sql.lit(message)})`.execute(app.deps.db);
  try {
    return await run();
  } finally {
    await sql`drop trigger test_refuse_insert on ${sql.table(table)}`.execute(app.deps.db);
  }
}

/** The messages (causes included) of the errors in `log.error({ err }, ...)` calls. */
function loggedErrors(calls: unknown[][]): string[] {
  const messages: string[] = [];
  for (const [obj] of calls) {
    let error = (obj as { err?: unknown } | undefined)?.err;
    for (let depth = 0; error instanceof Error && depth < 5; depth += 1) {
      messages.push(error.message);
      error = error.cause;
    }
  }
  return messages;
}

/** Hides `table` from the server's queries for the length of `run`. */
async function withRenamedTable<T>(table: 'uploads' | 'media_files', run: () => Promise<T>): Promise<T> {
  await sql`alter table ${sql.table(table)} rename to ${sql.table(`${table}_hidden`)}`.execute(app.deps.db);
  try {
    return await run();
  } finally {
    await sql`alter table ${sql.table(`${table}_hidden`)} rename to ${sql.table(table)}`.execute(app.deps.db);
  }
}

describe('a NUL byte in text is a 400 with a clear message, never a database error', () => {
  it('comments.add', async () => {
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    expectRefused(await mutate(asFan, 'comments.add', { postId: post.id, text: `nice${NUL}post` }));
    expectRefused(await mutate(asFan, 'comments.add', { postId: post.id, text: 'x\uD800y' }), VALIDATION.invalidCharacters);
    // tabs, newlines and emoji are comments like any other
    const ok = await mutate(asFan, 'comments.add', { postId: post.id, text: 'line one\n\tline two 🎉' });
    expect(ok.status, ok.text).toBe(200);
    const rows = await app.deps.db.selectFrom('comments').select('comment_text').where('post_id', '=', post.id).execute();
    expect(rows.map((r) => r.comment_text)).toEqual(['line one\n\tline two 🎉']);
  });

  it('profiles.byUsername and profiles.posts (username lookup and search)', async () => {
    expectRefused(await query(app.client(), 'profiles.byUsername', { username: `${creator.username}${NUL}` }));
    expectRefused(await query(app.client(), 'profiles.posts', { username: creator.username, q: `cats${NUL}` }));
    expect((await query(app.client(), 'profiles.byUsername', { username: creator.username })).status).toBe(200);
  });

  it('explore.search and explore.creators', async () => {
    expectRefused(await query(asFan, 'explore.search', { q: `${NUL}` }));
    expectRefused(await query(asFan, 'explore.creators', { q: `ab${NUL}cd` }));
    expectRefused(await query(asFan, 'explore.search', { q: 'cats\ndogs' }), VALIDATION.lineBreaks);
  });

  it('auth.signUp names (and nothing is created)', async () => {
    const visitor = app.client();
    const form = {
      email: 'nul-signup@example.test',
      password: 'secret123',
      username: 'nulsignup',
      firstName: 'Ava',
      surname: 'Stone',
      dateOfBirth: '1990-05-01',
      acceptTerms: true,
    };
    expectRefused(await mutate(visitor, 'auth.signUp', { ...form, firstName: `Ava${NUL}` }));
    expectRefused(await mutate(visitor, 'auth.signUp', { ...form, surname: `St${NUL}one` }));
    expectRefused(await mutate(visitor, 'auth.signUp', { ...form, surname: 'Stone\nSmith' }), VALIDATION.lineBreaks);
    expect(await app.deps.db.selectFrom('users').select('id').where('email', '=', form.email).executeTakeFirst()).toBeUndefined();
  });

  it('profiles.addLink, deleteLink and updateSocialLinks', async () => {
    expectRefused(await mutate(asCreator, 'profiles.addLink', { title: `Shop${NUL}`, url: 'shop.example.com' }));
    expectRefused(await mutate(asCreator, 'profiles.addLink', { title: 'Shop', url: `shop.example.com/${NUL}` }));
    expectRefused(await mutate(asCreator, 'profiles.deleteLink', { url: `https://shop.example.com/${NUL}` }));
    expectRefused(await mutate(asCreator, 'profiles.updateSocialLinks', { website: `site.example.com${NUL}` }));
    const ok = await mutate(asCreator, 'profiles.addLink', { title: 'Shop 🛍️', url: 'shop.example.com' });
    expect(ok.status, ok.text).toBe(200);
  });

  it('mediaSettings.save and comments.list / posts.byId ids', async () => {
    expectRefused(await mutate(asCreator, 'mediaSettings.save', { watermarkEnabled: true, watermarkText: `@me${NUL}`, watermarkPosition: 'center' }));
    // an id is parsed once (common/ids.ts): a malformed one, NUL or not, is answered as an unknown id
    for (const answer of [await query(app.client(), 'posts.byId', { id: `abc${NUL}` }), await query(app.client(), 'comments.list', { postId: `abc${NUL}` })]) {
      expect(answer.status, answer.text).toBe(404);
      expect(answer.error?.data.code).toBe('NOT_FOUND');
    }
  });

  it('tus: a NUL in the filename or the post text refuses the upload at creation, and nothing is stored', async () => {
    const before = await readdir(app.deps.config.UPLOADS_DIR).catch(() => [] as string[]);
    for (const fields of [uploadFields(`photo${NUL}.jpg`), uploadFields('photo.jpg', { postText: `Hello${NUL}` }), uploadFields('photo.jpg', { hashtags: `art${NUL}` })]) {
      const res = await tusCreate(asCreator, 1000, fields);
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(JSON.parse(text)).toEqual({
        error: { code: 'INVALID_METADATA', title: 'The upload details are invalid', description: CONTROL, message: `The upload details are invalid - ${CONTROL}` },
      });
      expect(res.headers.get('location')).toBeNull();
      expect(text).not.toMatch(DATABASE_WORDS);
    }
    expect(await readdir(app.deps.config.UPLOADS_DIR).catch(() => [] as string[])).toEqual(before);
  });
});

describe('a database error never reaches the client', () => {
  it('a failing query in a procedure answers 500 with generic words, no stack, and is logged', async () => {
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    const logged = vi.spyOn(app.deps.log, 'error');
    try {
      const answer = await withFailingInsert('comments', 'XX000', 'forced failure: secret relation detail', () =>
        mutate(asFan, 'comments.add', { postId: post.id, text: 'a perfectly good comment' }),
      );
      expect(answer.status).toBe(500);
      expect(answer.error?.data.code).toBe('INTERNAL_SERVER_ERROR');
      expect(answer.error?.message).toBe(SERVER_TEXTS.unexpected);
      expect(answer.error?.data.stack ?? null).toBeNull();
      expect(answer.text).not.toMatch(/secret|forced failure|XX000|\.ts:\d+/);
      // the server keeps the details
      expect(loggedErrors(logged.mock.calls).some((m) => m.includes('forced failure: secret relation detail'))).toBe(true);
    } finally {
      logged.mockRestore();
    }
  });

  it.each([
    ['22021', 'invalid byte sequence for encoding "UTF8": 0x00', CONTROL],
    ['22P05', 'unsupported Unicode escape sequence', CONTROL],
    ['22001', 'value too long for type character varying(10)', VALIDATION.textTooLong],
  ])('a database refusal of the data (SQLSTATE %s) is a 400 with clear words', async (sqlState, databaseMessage, message) => {
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    const answer = await withFailingInsert('comments', sqlState, databaseMessage, () =>
      mutate(asFan, 'comments.add', { postId: post.id, text: 'text the schema accepted' }),
    );
    expectRefused(answer, message);
    expect(answer.text).not.toContain(databaseMessage);
  });

  it('tus: a finish that fails in the database answers generic words, in tus and in our own route, and a later try succeeds', async () => {
    const image = await jpegWithExif(64, 48);
    const created = await tusCreate(asCreator, image.length, uploadFields('retry.jpg'));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const logged = vi.spyOn(app.deps.log, 'error');
    try {
      // the finish runs inside tus: its onResponseError answers
      const patch = await withFailingInsert('posts', 'XX000', 'forced failure: secret relation detail', () => tusPatch(asCreator, location, 0, image));
      const patchText = await patch.text();
      expect(patch.status).toBe(500);
      expect(JSON.parse(patchText)).toEqual({ error: { code: 'INTERNAL_SERVER_ERROR', message: SERVER_TEXTS.unexpected } });
      // a failure in our own route, before tus: the Express error handler answers
      const again = await withRenamedTable('uploads', () => tusPatch(asCreator, location, image.length, new Uint8Array(0)));
      const againText = await again.text();
      expect(again.status).toBe(500);
      expect(JSON.parse(againText)).toEqual({ error: { code: 'INTERNAL_SERVER_ERROR', message: SERVER_TEXTS.unexpected } });
      for (const text of [patchText, againText]) expect(text).not.toMatch(/secret|forced failure|uploads|relation|\.ts:\d+/);
      const causes = loggedErrors(logged.mock.calls);
      expect(causes.some((c) => c.includes('forced failure: secret relation detail'))).toBe(true);
      expect(causes.some((c) => c.includes('relation "uploads" does not exist'))).toBe(true);
    } finally {
      logged.mockRestore();
    }
    // the bytes were kept: the next HEAD finishes the upload
    const done = await tusHead(asCreator, location);
    expect(done.status).toBe(200);
    expect(done.headers.get(UPLOAD_POST_ID_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('/media: a failing query answers 500 JSON with generic words, not the error page', async () => {
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image' });
    const res = await withRenamedTable('media_files', () => app.client().fetch(`/media/${post.id}/original`));
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL_SERVER_ERROR', message: SERVER_TEXTS.unexpected } });
    expect(text).not.toMatch(/media_files|relation|at .*\.ts/);
    // the same request works once the table is back
    expect((await app.client().fetch(`/media/${post.id}/original`)).status).toBe(200);
  });
});
