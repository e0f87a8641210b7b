import { TRPCError } from '@trpc/server';
import { fromCents, toCents } from '../../../common/money';
import { MASS_MESSAGES_PER_DAY, type CreateMassMessageInput, type MassAudience, type MassMessageListInput } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { readCents } from '../../../core/db/cents';
import type { AppDeps } from '../../../core/deps';
import { addToOutbox, dispatchOutbox } from '../../../core/outbox/outbox';
import { countAudiences, nextMassBatch, type AudienceCounts } from '../../../domain/messaging/mass-messages';
import { findOwnAttachment } from '../../../domain/messaging/own-attachment.queries';
import { requireMaySell } from '../../shared/selling';
import { countSince, findByClientId, findMassMessagePage, findOwnTier, insertMassMessage } from './mass-messages.queries';

type Deps = Pick<AppDeps, 'db' | 'queues' | 'log' | 'clock' | 'payments'>;

export interface MassMessageDto {
  id: string;
  audience: MassAudience;
  tierName: string | null;
  content: string | null;
  attachmentKind: string | null;
  price: string | null;
  /** 'failed': its delivery stopped for good (worker/jobs/stalled-mass-messages.ts); `sent` of `stoppedTotal` got it */
  status: 'queued' | 'sending' | 'sent' | 'failed';
  /** with 'failed': the audience's size when it stopped (the N of M the screen shows) */
  stoppedTotal: number | null;
  createdAt: string;
  sent: number;
  read: number;
  unlocked: number;
  revenue: string;
}

const PAGE = 20;

/** How many fans each audience reaches now (the picker's counts). */
export function audiences(deps: Deps, creatorId: string): Promise<AudienceCounts> {
  return countAudiences(deps.db, creatorId);
}

/**
 * A creator's message to many (issue 27 item 4): checked here (a tier of theirs, a ready file of
 * theirs no message carries, a price only with a file, at most MASS_MESSAGES_PER_DAY a day), then
 * one row and its first delivery job through the outbox in one transaction; the worker delivers it
 * in batches on the `mass-messages` queue. Idempotent by (creator, clientId): a second press or a
 * retry answers the first.
 */
export async function createMassMessage(deps: Deps, creatorId: string, input: CreateMassMessageInput): Promise<{ id: string }> {
  const repeat = await findByClientId(deps.db, creatorId, input.clientId);
  if (repeat) return { id: repeat.id };
  const content = input.content ?? '';
  if (!content && !input.attachmentId) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.emptyMessage });
  if (input.price) await requireMaySell(deps, creatorId, 'massMessagePrice');
  const tierId = input.audience === 'tier' ? (input.tierId ?? null) : null;
  if (tierId && !(await findOwnTier(deps.db, creatorId, tierId))) throw new TRPCError({ code: 'NOT_FOUND', message: T.tierNotFound });
  if (input.attachmentId) {
    const file = await findOwnAttachment(deps.db, creatorId, input.attachmentId);
    if (!file || file.used) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.attachmentNotFound });
    // every copy shares the one file: it must be ready before thousands of threads show it
    if (file.status !== 'ready') throw new TRPCError({ code: 'BAD_REQUEST', message: T.attachmentNotReady });
  }
  const now = deps.clock.now();
  const created = await deps.db.transaction().execute(async (trx) => {
    const recent = await countSince(trx, creatorId, new Date(now.getTime() - 24 * 3600_000));
    const again = await findByClientId(trx, creatorId, input.clientId);
    if (again) return { id: again.id, entry: null };
    if (recent >= MASS_MESSAGES_PER_DAY) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: T.quota(MASS_MESSAGES_PER_DAY) });
    const row = await insertMassMessage(trx, {
      creator_id: creatorId,
      audience: input.audience,
      tier_id: tierId,
      content: content || null,
      attachment_id: input.attachmentId ?? null,
      price_cents: input.price ? toCents(input.price) : null,
      client_id: input.clientId,
    });
    if (!row) throw new TRPCError({ code: 'CONFLICT', message: MESSAGE_TEXTS.sendFailed });
    const entry = await addToOutbox(trx, nextMassBatch(row.id, null));
    return { id: row.id, entry };
  });
  if (created.entry) await dispatchOutbox(deps, [created.entry]);
  return { id: created.id };
}

export async function listMassMessages(deps: Deps, creatorId: string, input: MassMessageListInput): Promise<{ items: MassMessageDto[]; nextCursor: string | null }> {
  const [at, id] = input.cursor ? (input.cursor.split('~') as [string, string]) : [null, null];
  const rows = await findMassMessagePage(deps.db, creatorId, at && id ? { at, id } : null, PAGE + 1);
  const page = rows.slice(0, PAGE);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      id: r.id,
      audience: r.audience,
      tierName: r.tier_name,
      content: r.content,
      attachmentKind: r.attachment_kind,
      price: fromCents(readCents(r.price_cents)),
      status: r.status,
      stoppedTotal: r.stopped_total,
      createdAt: r.created_at,
      sent: Number(r.sent ?? 0),
      read: Number(r.read ?? 0),
      unlocked: Number(r.unlocked ?? 0),
      revenue: fromCents(readCents(r.revenue ?? '0')),
    })),
    nextCursor: rows.length > PAGE && last ? `${last.created_at}~${last.id}` : null,
  };
}
