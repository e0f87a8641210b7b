import { TRPCError } from '@trpc/server';
import type { LeakTraceDto } from '../../../common/forensics';
import { TRACE_TEXTS } from '../../../common/forensics';
import type { DB } from '../../../core/db/kysely';
import type { TraceVerdict } from '../../../domain/forensics/verdict';
import { findTracedPost, postTraces, recentTraces, type TraceRow } from './forensics.queries';

/**
 * Leak traces (docs/media.md, "Tracing a leak"): who may ask (the post's creator or an admin) and
 * what they see of the log. The upload itself is forensics.http.ts.
 */

/** 'not-found' for no such post; 'forbidden' for anyone but its creator and admins. */
export async function traceAccess(db: DB, user: { id: string; role: string }, postId: string): Promise<'ok' | 'not-found' | 'forbidden'> {
  const post = await findTracedPost(db, postId);
  if (!post) return 'not-found';
  return post.creator_id === user.id || user.role === 'admin' ? 'ok' : 'forbidden';
}

export async function listPostTraces(db: DB, user: { id: string; role: string }, postId: string): Promise<LeakTraceDto[]> {
  const access = await traceAccess(db, user, postId);
  if (access === 'not-found') throw new TRPCError({ code: 'NOT_FOUND', message: 'Post not found' });
  if (access === 'forbidden') throw new TRPCError({ code: 'FORBIDDEN', message: TRACE_TEXTS.notAllowed });
  return (await postTraces(db, postId)).map(toDto);
}

export async function listRecentTraces(db: DB): Promise<LeakTraceDto[]> {
  return (await recentTraces(db)).map(toDto);
}

function toDto(row: TraceRow): LeakTraceDto {
  const v = row.verdict as TraceVerdict | null;
  let verdict: LeakTraceDto['verdict'] = null;
  if (v?.kind === 'unmarked') verdict = { kind: 'unmarked' };
  else if (v?.kind === 'unknown') verdict = { kind: 'unknown', reason: v.reason };
  else if (v?.kind === 'identified') {
    verdict = { kind: 'identified', buyer: { id: v.userId, username: row.buyer_username, displayName: row.buyer_display_name }, confidence: v.confidence, evidence: v.evidence };
  }
  return {
    id: row.id,
    postId: row.post_id,
    post: { title: row.post_title, creatorUsername: row.post_creator_username },
    status: row.status,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    requestedBy: row.requested_by_username,
    fileSha256: row.file_sha256,
    fileBytes: Number(row.file_bytes),
    verdict,
  };
}
