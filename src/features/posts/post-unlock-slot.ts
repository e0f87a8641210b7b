import { createContext, type ComponentType } from 'react';
import type { Post } from '../../lib/post-cache';

/**
 * The pay-per-view overlay (features/subscriptions/unlock-overlay.tsx, which charges through the
 * one purchase hook) as the posts feature shows it: features do not import each other, so the app
 * shell, which composes them, provides it here (lazily: the post card is on the landing's budget).
 */
export const PostUnlockSlot = createContext<ComponentType<{ post: Post }> | null>(null);
