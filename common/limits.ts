/** Business constants of the spec (part 1 §9, part 2 §9), in one place for client, server and worker. */
export const LIMITS = {
  feedPageSize: 5,
  profileFeedPageSize: 5,
  draftsPageSize: 10,
  anonymousUnblurredPosts: 3,
  featuredCreators: 6,
  minPasswordLength: 6,
  maxPasswordLength: 256,
  minimumAge: 18,
  textPreviewLength: 100,
  profileSearchDebounceMs: 300,
  sessionCheckIntervalMs: 5 * 60_000,
  unreadBadgeMax: 99,
  sessionExpiredToastMs: 5_000,
  toastMs: 3_000,
  lazyLoadMarginPx: 200,
  refreshSpinnerMs: 1_000,
  mobileBreakpointPx: 768,
  featuredSkeletons: 3,
  exploreSkeletons: 8,
  messagePageSize: 20,
  chatAttachmentBytes: 10 * 1024 * 1024,
  avatarBytes: 5 * 1024 * 1024,
  premiumPriceRand: 150,
  usernameMaxLength: 30,
  nameMaxLength: 60,
  emailMaxLength: 254,
  commentMaxLength: 2000,
  /** the most posts one feed page may ask for (the spec's page is 5) */
  feedPageMax: 20,
  /** ids one `room:join` / `room:leave` may carry */
  postRoomJoinMax: 50,
  /** spec part 1 §7: 'Event rate limit is 10 per second' (incoming socket events per socket) */
  socketEventsPerSecond: 10,
} as const;

/**
 * Bounds of costly media (not in the spec: our own), refused by the worker before it transcodes.
 * The picture may be at most 4K UHD in either orientation: its longer side at most 3840 and its
 * shorter side at most 2160 (so 2160x3840 upright is fine, 4096x2160 DCI is not). Frame rates
 * are compared with a 1% allowance (59.94 and 60.02 are 60). Durations are the container's.
 */
export interface MediaBounds {
  videoMaxLongSide: number;
  videoMaxShortSide: number;
  /** the name of that size in the refusal ('4K') */
  videoSizeName: string;
  videoMaxFps: number;
  videoMaxMinutes: number;
  audioMaxMinutes: number;
}

export const MEDIA_LIMITS = {
  videoMaxLongSide: 3840,
  videoMaxShortSide: 2160,
  videoSizeName: '4K',
  videoMaxFps: 60,
  videoMaxMinutes: 30,
  audioMaxMinutes: 60,
} as const satisfies MediaBounds;

/**
 * Bounds of chat attachments (issue 23; our own): a chat is not a channel, and a fan's file must
 * not cost what a creator's post may. Video at most 10 minutes and 1080p (1920x1080 either way
 * round) at 60 fps, audio at most 20 minutes. Same checks as MEDIA_LIMITS, by the same code.
 */
export const CHAT_MEDIA_LIMITS = {
  videoMaxLongSide: 1920,
  videoMaxShortSide: 1080,
  videoSizeName: '1080p',
  videoMaxFps: 60,
  videoMaxMinutes: 10,
  audioMaxMinutes: 20,
} as const satisfies MediaBounds;

/** Cache times of spec part 1 §9 (milliseconds): fresh = staleTime, kept = gcTime. */
export const CACHE = {
  feed: { staleTime: 2 * 60_000, gcTime: 15 * 60_000 },
  profile: { staleTime: 5 * 60_000, gcTime: 30 * 60_000 },
  post: { staleTime: 5 * 60_000, gcTime: 30 * 60_000 },
  explore: { staleTime: 2 * 60_000, gcTime: 15 * 60_000 },
} as const;

/** Session lifetime (DESIGN.md: Lucia-style, 30 days, renewed when under 15 days remain). */
export const SESSION = {
  lifetimeMs: 30 * 24 * 60 * 60_000,
  renewWhenUnderMs: 15 * 24 * 60 * 60_000,
  cookieName: 'session',
} as const;

/** Rate limits on sign-in and sign-up, per IP and per account, in Redis. */
export const RATE_LIMITS = {
  auth: { points: 10, windowSeconds: 60 },
} as const;

export const EMAIL_TOKEN_TTL_MS = {
  confirm_email: 48 * 60 * 60_000,
  reset_password: 60 * 60_000,
} as const;

/**
 * Profiles and Explore (issue 4). Not in the spec; our own choices, in one place.
 * The upgrade card promises Premium creators 'unlimited links': free profiles keep 5 custom
 * links, Premium ones a ceiling high enough never to be met in practice (a row must stay small).
 */
export const PROFILE_LIMITS = {
  customLinksFree: 5,
  customLinksPremium: 100,
  linkTitleMaxLength: 100,
  urlMaxLength: 2048,
  /** twitter and instagram usernames */
  socialHandleMaxLength: 30,
  /** search within a profile and in Explore */
  searchMaxLength: 200,
  /** posts per Explore page: one row of the grid's 8 skeleton cards */
  explorePageSize: 8,
  exploreCreatorsLimit: 6,
} as const;
