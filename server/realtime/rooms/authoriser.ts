import type { AppDeps } from '../../../core/deps';

/**
 * Decides which rooms of one kind a socket's user may join: given the ids asked for, the ones
 * allowed (the others are left out silently). `userId` is null for a visitor.
 */
export type RoomAuthoriser = (deps: Pick<AppDeps, 'db'>, userId: string | null, ids: string[]) => Promise<string[]>;
