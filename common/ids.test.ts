import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { entityId, idList, isUuid, messageId, postId, readId, replyToId, tierId, unknownIdAnswer } from './ids';
import { BILLING_TEXTS, MESSAGE_TEXTS, POST_TEXTS } from './texts';

const ID = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
const MALFORMED = ['', 'nope', `${ID}x`, ID.slice(1), `${ID} ${ID}`, ID.replaceAll('-', ''), "1' or '1'='1", 'g'.repeat(36)];

/** The answer a procedure gives when `schema` refuses `value` (null: it parses). */
function answerFor(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : unknownIdAnswer(parsed.error);
}

describe('common/ids.ts: ids parsed once', () => {
  it('knows a uuid in either case and nothing else', () => {
    expect(isUuid(ID)).toBe(true);
    expect(isUuid(ID.toUpperCase())).toBe(true);
    for (const value of MALFORMED) expect(isUuid(value), value).toBe(false);
  });

  it('answers a malformed id exactly like an unknown one: the thing not found, with its code', () => {
    expect(messageId.parse(ID)).toBe(ID);
    expect(postId.parse(` ${ID}\n`)).toBe(ID);
    for (const value of MALFORMED.filter(Boolean)) {
      expect(answerFor(postId, value), value).toEqual({ code: 'NOT_FOUND', message: POST_TEXTS.notFound });
      expect(answerFor(messageId, value), value).toEqual({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.messageNotFound });
      expect(answerFor(tierId, value), value).toEqual({ code: 'NOT_FOUND', message: BILLING_TEXTS.tierNotFound });
    }
    // a reply to a message not in the conversation is the sender's mistake, known or not
    expect(answerFor(replyToId, 'nope')).toEqual({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.replyNotInConversation });
    expect(answerFor(z.object({ id: entityId('Gone') }), { id: 'x' })).toEqual({ code: 'NOT_FOUND', message: 'Gone' });
  });

  it("keeps a missing post id a form's validation error ('Post ID is required'), not an unknown post", () => {
    const parsed = postId.safeParse(' ');
    expect(parsed.success ? [] : parsed.error.issues.map((i) => i.message)).toEqual([POST_TEXTS.idRequired]);
    expect(parsed.success ? 'parsed' : unknownIdAnswer(parsed.error)).toBeNull();
  });

  it('finds the unknown id among other refusals, and nothing in refusals of other fields', () => {
    const schema = z.object({ id: messageId, text: z.string().min(1, 'Empty') });
    expect(answerFor(schema, { id: 'nope', text: '' })).toEqual({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.messageNotFound });
    expect(answerFor(schema, { id: ID, text: '' })).toBeNull();
    expect(answerFor(schema, { id: 42, text: 'x' })).toBeNull(); // not a string at all: a validation error
  });

  it('drops malformed and repeated ids from a list where unknown ids change nothing', () => {
    expect(idList(5).parse([ID, 'nope', ID, ID.toUpperCase()])).toEqual([ID, ID.toUpperCase()]);
    expect(idList(2).safeParse([ID, ID, ID]).success).toBe(false);
    expect(idList(2).safeParse([]).success).toBe(false);
  });

  it('reads HTTP route parameters: the id, or null for anything else', () => {
    expect(readId(ID)).toBe(ID);
    for (const value of [...MALFORMED, undefined, 42, [ID]]) expect(readId(value)).toBeNull();
  });
});
