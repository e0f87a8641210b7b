/** Enumerations shared by the database CHECK constraints, zod schemas and the UI. */
export const POST_STATUSES = ['processing', 'draft', 'published', 'failed', 'scheduled'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const MEDIA_KINDS = ['image', 'video', 'audio', 'pdf', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** original: the sniffed upload; web/medium/thumb: display sizes (1080/720/320 px); poster: video frame; preview: blurred premium teaser. */
export const MEDIA_VARIANTS = ['original', 'web', 'medium', 'thumb', 'poster', 'preview'] as const;
export type MediaVariant = (typeof MEDIA_VARIANTS)[number];

export const PROFILE_VISIBILITIES = ['public', 'private', 'friends', 'hidden'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];

export const PAYMENT_INTERVALS = ['weekly', 'monthly', 'annually'] as const;
export type PaymentInterval = (typeof PAYMENT_INTERVALS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const WATERMARK_POSITIONS = ['center', 'top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];

export const USER_ROLES = ['user', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const EMAIL_TOKEN_PURPOSES = ['confirm_email', 'reset_password'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

export const EXPLORE_CATEGORIES = ['Art', 'Music', 'Gaming', 'Technology'] as const;
