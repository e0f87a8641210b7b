import { unlockOfFields } from '../../../common/post-unlock';
import type { UploadFormFields } from '../../../common/uploads';
import type { PostUploadFields, UnfinishedUpload } from './tus-upload';
import type { PickedFile, PostStatusChoice } from './upload-machine';

/**
 * A post's details as the upload form holds them, and as they travel with its upload: tus sends
 * them with the upload's first request (common/uploads.ts `toUploadMetadata`), so an upload
 * resumed after a reload becomes the post its creator described then. A post of one file and
 * each file of a post of several go through the same `toPostUploadFields`.
 */
export type PostFields = UploadFormFields;

export const EMPTY_FIELDS: PostFields = { title: '', postText: '', hashtags: '', isPaidContent: false, isNsfw: false, payPerView: false, unlockPrice: '', unlockMode: 'everyone' };

export interface UploadSending {
  status: PostStatusChoice;
  /** with status 'scheduled' */
  publishAt?: Date;
  /** names the post's 'Publishing' card and its toast until the worker has made the post */
  optimisticId: string;
  /** one file of a post of several */
  group?: PostUploadFields['group'];
}

/** The form's values as one file's upload carries them; blank text travels as no value at all. */
export function toPostUploadFields(fields: PostFields, { file, rule }: PickedFile, sending: UploadSending): PostUploadFields {
  return {
    filetype: file.type || rule.contentType,
    title: fields.title.trim() || undefined,
    postText: fields.postText.trim() || undefined,
    hashtags: fields.hashtags.trim() || undefined,
    isPaidContent: fields.isPaidContent,
    isNsfw: fields.isNsfw,
    unlock: unlockOfFields(fields),
    status: sending.status,
    publishAt: sending.status === 'scheduled' ? sending.publishAt : undefined,
    optimisticId: sending.optimisticId,
    group: sending.group,
  };
}

// tus carries every value as a string
const flag = (value: string | undefined) => value === 'true' || value === '1';

/** The details an unfinished upload was started with, back in the form's shape. */
export function fieldsOfUpload({ metadata }: UnfinishedUpload): PostFields {
  return {
    title: metadata.title ?? '',
    postText: metadata.postText ?? '',
    hashtags: metadata.hashtags ?? '',
    isPaidContent: flag(metadata.isPaidContent),
    isNsfw: flag(metadata.isNsfw),
    payPerView: !!metadata.unlockPrice,
    unlockPrice: metadata.unlockPrice ?? '',
    unlockMode: metadata.unlockMode === 'non_subscribers' ? 'non_subscribers' : 'everyone',
  };
}
