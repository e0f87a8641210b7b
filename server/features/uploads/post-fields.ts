import { parseHashtags, type UploadMetadata } from '../../../common/uploads';
import type { NewProcessingPost } from '../../../domain/posts/transitions';

/**
 * What the creator chose for the post, from an upload's checked metadata: the same for a post of
 * one file and of several (the group's metadata is the first file's).
 */
export function chosenPostFields(meta: UploadMetadata): Omit<NewProcessingPost, 'id' | 'creatorId' | 'mediaKind' | 'originalFilename'> {
  return {
    title: meta.title ?? null,
    text: meta.postText?.trim() || null,
    hashtags: parseHashtags(meta.hashtags, meta.postText),
    isPremium: meta.isPaidContent,
    isNsfw: meta.isNsfw,
    targetStatus: meta.status,
    // checked when the upload began; a time that passed while the bytes travelled is published by the next run of the schedule's job
    publishAt: meta.publishAt ? new Date(meta.publishAt) : null,
    optimisticId: meta.optimisticId ?? null,
    unlock: meta.unlockPrice !== undefined && meta.unlockMode ? { priceCents: meta.unlockPrice, mode: meta.unlockMode } : null,
  };
}
