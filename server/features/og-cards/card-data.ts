import type { Request, Response } from 'express';
import type { AppDeps } from '../../../core/deps';
import { contextOf, createCallerFactory, type Context } from '../../trpc/init';
import { appRouter } from '../../trpc/router';
import { postCard, profileCard, type Card } from './card-model';

export type CardTarget = { kind: 'profile'; username: string } | { kind: 'post'; id: string };

const createCaller = createCallerFactory(appRouter);

/**
 * A visitor's context, whatever the request carries: a card is the same for everyone (and is
 * cached and shared as such), so it is made from what a signed-out visitor gets, by the same
 * procedures and access rule as the pages' link previews (server/http/first-data.ts).
 */
function visitorContext(deps: AppDeps, req: Request, res: Response): Context {
  return contextOf(deps, { req, res }, null);
}

/**
 * What the card of a profile or post shows, or null when a visitor may not see it: an unknown,
 * private or hidden profile (profiles.byUsername), a draft, scheduled or unknown post, or one of
 * such a creator (posts.byId).
 */
export async function loadCard(deps: AppDeps, req: Request, res: Response, target: CardTarget): Promise<Card | null> {
  const caller = createCaller(visitorContext(deps, req, res));
  try {
    return target.kind === 'profile'
      ? profileCard(await caller.profiles.byUsername({ username: target.username }))
      : postCard(await caller.posts.byId({ id: target.id }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'NOT_FOUND' || code === 'BAD_REQUEST') return null;
    throw error;
  }
}
