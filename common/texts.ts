/**
 * The product's own words (spec part 1 and part 2), kept verbatim. A toast is {title, description}.
 * Anything a user reads that the spec names comes from here, on the client and the server alike.
 */
export interface ToastText {
  title: string;
  description?: string;
}

export const BRAND = {
  name: 'CreatorHub',
  footerAbout: 'A platform for creators to share and monetize their content.',
} as const;

export const LANDING = {
  headline: 'Share Your Content, Your Way',
  subline: 'Join the platform where creators thrive with full creative freedom and direct connection with their audience.',
  signUpButton: 'Sign Up Free',
  signInButton: 'Sign In',
  featuredHeading: 'Featured Creators',
  featuredLine: 'Discover trending content creators',
  featuredErrorTitle: 'Unable to load featured creators.',
  featuredErrorText: 'Please try again later.',
  featuredEmpty: 'No featured creators available at the moment.',
  /** beside the signed-in home's strip of featured creators, which scrolls sideways */
  featuredStripHint: 'Scroll for more',
} as const;

export const VALIDATION = {
  invalidEmail: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  emailRequired: 'Email is required',
  usernameRequired: 'Username is required',
  firstNameRequired: 'First name is required',
  surnameRequired: 'Surname is required',
  dateOfBirthRequired: 'Date of birth is required',
  termsRequired: 'You must accept the Terms and Conditions',
  underAge: 'You must be 18 or older to sign up.',
  dateOfBirthInFuture: 'Date of birth cannot be in the future',
  validationErrorTitle: 'Validation Error',
  // Not in the spec: our own rules, phrased in its style.
  usernameInvalid: 'Username may only contain letters, numbers, dots, underscores and hyphens',
  usernameTooLong: 'Username must be at most 30 characters',
  usernameTaken: 'This username is already taken',
  usernameReserved: 'This username is not available',
  passwordTooLong: 'Password must be at most 256 characters',
  nameTooLong: 'Name must be at most 60 characters',
  // Characters PostgreSQL cannot store in text (common/text-schema.ts), refused before any query.
  controlCharacters: 'Text cannot contain control characters',
  lineBreaks: 'Text cannot contain line breaks',
  invalidCharacters: 'Text contains invalid characters',
  textTooLong: 'Text is too long',
} as const;

export const AUTH_TEXTS = {
  signOutFailed: { title: 'Error', description: 'Failed to sign out' },
  sessionExpired: { title: 'Session Expired', description: 'Please sign in again to continue' },
  signInFailed: { title: 'Sign in failed', description: 'Please check your credentials and try again' },
  signInSucceeded: { title: 'Sign in successful', description: 'Welcome back!' },
  accountExists: {
    title: 'Account Already Exists',
    description: 'An account with this email already exists. Please sign in instead.',
  },
  signUpErrorTitle: 'Sign Up Error',
  unexpected: { title: 'Unexpected Error', description: 'An unexpected error occurred. Please try again.' },
  signUpSucceeded: { title: 'Sign Up Successful!', description: 'Please check your email to confirm your account.' },
  sessionCheckFailed: {
    title: 'Authentication Error',
    description: 'There was a problem verifying your authentication status.',
  },
  exploreRequiresAuth: {
    title: 'Authentication Required',
    description: 'Please sign in to access the explore page',
  },
  // Our own, for flows the spec leaves out (confirmation, reset, rate limit).
  invalidCredentials: 'Invalid email or password',
  emailNotConfirmed: 'Please confirm your email address before signing in. We have sent you a new link.',
  accountSuspended: 'This account has been suspended after a report. Write to safety@creatorhub.app if you think this is a mistake.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  emailConfirmed: { title: 'Email confirmed', description: 'Your account is ready. You can sign in now.' },
  emailAlreadyConfirmed: { title: 'Email already confirmed', description: 'This email address is already confirmed. You can sign in.' },
  confirmLinkInvalid: 'This confirmation link is invalid or has expired.',
  resetRequested: {
    title: 'Check your email',
    description: 'If an account exists for that address, we have sent a link to reset your password.',
  },
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  passwordUpdated: { title: 'Password updated', description: 'You can now sign in with your new password.' },
  signedOut: { title: 'Signed out', description: 'You have been signed out.' },
  signedOutOthers: { title: 'Signed out elsewhere', description: 'Your other sessions have been signed out.' },
  csrfRejected: 'Request blocked: it did not come from this site.',
} as const;

export const SHELL_TEXTS = {
  feedRefreshed: { title: 'Feed refreshed', description: 'Your feed is being updated with the latest content' },
  notFound: 'Oops! Page not found',
  notFoundHome: 'Return to Home',
  errorTitle: 'Something went wrong',
  errorFallback: 'An unexpected error occurred',
  tryAgain: 'Try again',
} as const;

/** A failure the caller cannot fix: the answer never carries the database's or a library's own words. */
export const SERVER_TEXTS = {
  unexpected: 'Something went wrong. Please try again.',
  /** PostgreSQL or Redis is unavailable for a moment (HTTP 503) */
  unavailable: 'Service temporarily unavailable. Please try again.',
  /** a write over its budget (HTTP 429, server/auth/write-budgets.ts) */
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
} as const;

/** Posts, the feed and the single post page (spec part 1 §2, §6, §8). */
export const POST_TEXTS = {
  notFound: 'Post not found',
  idRequired: 'Post ID is required',
  deleteNotAllowed: { title: 'Permission denied', description: 'You can only delete your own posts' },
  deleteFailed: { title: 'Error', description: 'Failed to delete post. Please try again later.' },
  deleted: { title: 'Post deleted', description: 'Your post has been removed.' },
  premiumOverlay: { title: 'Premium Content', description: 'Subscribe to view' },
  premiumToast: { title: 'Premium Content', description: 'Subscribe to view this content.' },
  contentLocked: { title: 'Content Locked', description: 'Sign up to see more content and interact with creators' },
  unsupportedFileType: 'Unsupported file type',
  pdfTile: 'PDF Document',
  // Not in the spec: .txt, .doc and .docx posts (the form accepts them) are shown, not 'Unsupported'.
  wordDocument: 'Word document',
  textFile: 'Text file',
  textFileUnavailable: 'The text could not be loaded.',
  textFileContinues: 'The file goes on: Save Media has all of it.',
  showMore: 'Show More',
  showLess: 'Show Less',
  deletePost: 'Delete Post',
  // Not in the spec: destructive actions ask first, naming what will be lost.
  deleteConfirm: {
    title: 'Delete this post?',
    description: (name: string | null) =>
      `${name ? `“${name}”` : 'This post'} will be permanently deleted, with its media, likes, comments and bookmarks. This cannot be undone.`,
    confirm: 'Delete post',
  },
  deleteUploadConfirm: {
    title: 'Delete this upload?',
    description: (filename: string) => `“${filename}” will be permanently deleted, with the file you uploaded. This cannot be undone.`,
    confirm: 'Delete upload',
  },
  saveMedia: 'Save Media',
  shareTitle: 'Check out this post',
  linkCopied: 'Link copied to clipboard',
  downloadFailedTitle: 'Download failed',
  downloadFailedFallback: 'Unable to download the file',
  downloadInitiated: 'Download initiated',
  downloadStarted: 'Download started',
  publishing: { title: 'Publishing', description: 'Processing...' },
  // Not in the spec: the optimistic card while the bytes travel, and the badges of a tile.
  uploadingPercent: (percent: number) => `Uploading ${percent}%`,
  premiumBadge: 'Premium',
  videoDuration: (duration: string) => `Video, ${duration}`,
  published: { title: 'Post published', description: 'Your content is now live!' },
} as const;

export const FEED_TEXTS = {
  loadError: 'Error loading content',
  empty: 'No content available',
  emptyYet: 'No content available yet',
  noSearchResults: 'No results found for your search',
  noDrafts: 'No draft content available',
  noBookmarks: 'No bookmarked posts yet',
  creatorNotFound: 'Creator not found',
  /** the pill over an open feed that loads the posts published since it was loaded */
  newPosts: (n: number) => (n === 1 ? '1 new post' : `${n} new posts`),
  /** under the last post of a feed that has no further page */
  caughtUp: "You're all caught up",
} as const;

/** Comments (spec part 1 §2, §5, §8). */
export const COMMENT_TEXTS = {
  label: 'Your comment',
  placeholder: 'Add a comment...',
  replyPlaceholder: 'Write a reply...',
  empty: 'No comments yet. Be the first to comment!',
  tooltipNone: 'No comments yet',
  tooltipOne: '1 comment',
  /** 'N comments' */
  tooltipMany: (n: number) => `${n} comments`,
  signInRequired: { title: 'Authentication required', description: 'Please sign in to comment' },
  addFailed: { title: 'Error', description: 'Failed to add comment' },
  loadFailed: { title: 'Error', description: 'Failed to load comments' },
  added: { title: 'Comment added', description: 'Your comment has been posted successfully' },
  // Not in the spec: our own rules, phrased in its style.
  textRequired: 'Comment cannot be empty',
  textTooLong: 'Comment must be at most 2000 characters',
  parentNotFound: 'The comment you are replying to does not exist',
} as const;

/** Bookmarks (spec part 1 §6, §8). */
export const BOOKMARK_TEXTS = {
  signInRequired: { title: 'Sign in required', description: 'Please sign in to bookmark posts' },
  alreadyBookmarked: { title: 'Already bookmarked', description: 'This post is already in your bookmarks' },
  updateFailed: { title: 'Error', description: 'Failed to update bookmark' },
  added: 'Added to bookmarks',
  removed: 'Removed from bookmarks',
} as const;

/** Likes: the spec shows nothing when signed out; the server still needs words for its refusal. */
export const LIKE_TEXTS = {
  // Not in the spec.
  signInRequired: 'Please sign in to like posts',
} as const;

/** Creator profiles: header, tabs, links, drafts (spec part 1 §2, §4, §5, §8). */
export const PROFILE_TEXTS = {
  notFound: { title: 'Profile not found', description: "The profile you're looking for doesn't exist or is private." },
  usernameRequired: 'Username is required',
  privateOrDeleted: 'Profile is private or has been deleted',
  creatorNotFound: 'Creator not found',
  message: 'Message',
  subscribe: 'Subscribe',
  subscribed: 'Subscribed',
  subscribeNow: 'Subscribe Now',
  manageTier: 'Manage Subscription Tier',
  editProfile: 'Edit Profile',
  tabContent: 'Content',
  /** 'Drafts (n)' */
  tabDrafts: (n: number) => `Drafts (${n})`,
  tabBookmarks: 'Bookmarks',
  tabLinks: 'Links',
  upgradeCardPerks: ['unlimited links', 'verified badge', 'featured listing on the homepage'],
  published: 'Content published successfully',
  publishFailed: 'Failed to publish content',
  premiumTierMissing: 'Could not find premium subscription tier.',
} as const;

/** Custom and social links of a profile (spec part 1 §5, §8). */
export const LINK_TEXTS = {
  fieldsRequired: 'Please fill in both title and URL fields',
  added: 'Link added successfully',
  deleted: 'Link deleted successfully',
  addFailed: 'Failed to add link',
  deleteFailed: 'Failed to delete link',
  // Not in the spec: deleting a link asks first.
  deleteConfirm: {
    title: 'Delete this link?',
    description: (title: string, url: string) => `“${title}” (${url}) will be removed from your profile.`,
    confirm: 'Delete link',
  },
  socialUpdated: 'Social links updated',
  socialUpdateFailed: {
    title: 'Error updating social links',
    description: 'There was a problem updating your social links. Please try again.',
  },
  // Not in the spec: our own rules, phrased in its style.
  urlInvalid: 'Please enter a valid URL starting with http:// or https://',
  titleTooLong: 'Link title must be at most 100 characters',
  /** free profiles: PROFILE_LIMITS.customLinksFree */
  limitReached: (max: number) => `You can add up to ${max} links. Upgrade to Premium for unlimited links.`,
  linkNotFound: 'That link no longer exists',
  deleteWhich: 'Choose a link to delete',
  twitterInvalid: 'Please enter a valid Twitter username',
  instagramInvalid: 'Please enter a valid Instagram username',
  youtubeInvalid: 'Please enter a valid YouTube URL',
  websiteInvalid: 'Please enter a valid website URL',
} as const;


/** Becoming a creator (spec part 2 §2, §8). */
export const CREATOR_TEXTS = {
  becomeTitle: 'Become a Creator',
  becomeButton: 'Become a Creator',
  becameCreator: 'You are now a creator!',
  signInRequired: 'You must be logged in to become a creator',
  becomeFailed: 'Failed to become a creator. Please try again.',
  // Not in the spec: our own words for the server's refusal.
  creatorsOnly: 'Only creators can upload content',
} as const;

/** Uploading content (spec part 2 §5, §8, §9) and the media pipeline's outcomes. */
export const UPLOAD_TEXTS = {
  signInRequired: 'Please sign in to upload content',
  uploadFailed: 'Upload failed',
  failedToUpload: 'Failed to upload content',
  invalidType: { title: 'Invalid file type', description: 'Please upload a supported file type.' },
  tooLarge: (maxMb: number) => ({ title: 'File too large', description: `Maximum file size is ${maxMb}MB` }),
  savedAsDraft: 'Content saved as draft successfully',
  publishing: { title: 'Publishing post', description: 'Your content is being uploaded...' },
  // Not in the spec: our own rules and the worker's reasons, phrased in its style.
  creatorsOnly: 'Only creators can upload content',
  emptyFile: 'The file is empty.',
  lengthRequired: 'The upload must declare its size (Upload-Length).',
  invalidMetadata: 'The upload details are invalid',
  notYourUpload: 'This upload belongs to someone else',
  uploadFinished: 'This upload is already finished',
  /** the bytes do not match the extension: `typeMismatch('jpg', 'exe')` */
  typeMismatch: (ext: string, detected: string | null) =>
    `This file is not a valid ${ext.toUpperCase()} file${detected ? ` (its content is ${detected.toUpperCase()})` : ''}.`,
  damaged: (what: string) => `The ${what} could not be read: the file is damaged or incomplete.`,
  tooManyPixels: (megapixels: number) => `The image is too large: at most ${megapixels} megapixels.`,
  noVideoStream: 'The video has no picture.',
  noAudioStream: 'The audio file has no sound.',
  unsafeSvg: 'The SVG uses features that are not allowed (scripts-free drawings only, no external files or entities).',
  notText: 'The text file is not valid UTF-8 text.',
  notPdf: 'The PDF could not be read: it is damaged or incomplete.',
  processingFailed: 'Processing failed. Please try again.',
  retryNotPossible: 'Only a failed post can be retried',
  /** posts.retryProcessing's answer when the retry was saved but its job could not be queued (Redis away) */
  retrySavedForLater: {
    title: 'Retry saved',
    description: 'Processing is paused for a moment on our side; it starts by itself within a minute of the service coming back.',
  },
  processingNotFound: 'Post not found',
  // The upload form's failure alert: what was kept, and the one action that can help.
  workKept: 'Your title, text, hashtags and switches are kept.',
  retryUpload: 'Retry',
  chooseAnotherFile: 'Choose another file',
  // The bounds of costly media (MEDIA_LIMITS in common/limits.ts), checked before transcoding.
  /** a playlist, manifest or concat list (HLS, DASH, ffconcat, SDP) dressed as a video or audio file */
  pointsToOtherFiles: (what: string) => `This file only points to other files (a playlist, manifest or list): upload the ${what} itself.`,
  multipleVideoStreams: 'The video has more than one picture track.',
  multipleAudioStreams: 'The audio file has more than one sound track.',
  videoTooLarge: (maxWidth: number, maxHeight: number, sizeName = '4K') => `The video's picture is too large: at most ${maxWidth}x${maxHeight} pixels (${sizeName}).`,
  /** the frames the file holds (its stated count) are more than the longest accepted video at the highest rate */
  tooManyFrames: (maxMinutes: number, maxFps: number) => `The video has too many frames: at most ${maxMinutes} minutes at ${maxFps} frames per second.`,
  frameRateTooHigh: (maxFps: number) => `The video has too many frames per second: at most ${maxFps}.`,
  tooLong: (what: string, maxMinutes: number) => `The ${what} is too long: at most ${maxMinutes} minutes.`,
  tookTooLong: (what: string) => `The ${what} took too long to process.`,
  /** the tus POST (and the finish) when the creator already has this many posts processing */
  tooManyProcessing: (limit: number) => ({
    title: 'Too many uploads processing',
    description: `You have ${limit} posts being processed: wait for one to finish, then upload again.`,
  }),
} as const;


/**
 * The /create screen (spec part 2 §2): its tabs and the Become a Creator page. The spec names the
 * page, its benefits list and its button, not the benefits themselves: these are ours.
 */
export const CREATE_TEXTS = {
  becomeIntro: 'Share your work with the people who love it, and get paid for it.',
  benefits: [
    'Upload photos, videos, audio and documents, as drafts or published posts',
    'Offer subscription tiers and premium content to your fans',
    'Protect your media with your own watermark',
    'Reach fans in the feed and on Explore',
  ],
  tabContent: 'Content',
  tabTiers: 'Subscription Tiers',
} as const;


/** Direct messages (spec part 2 §2, §5, §8): the spec's words, and our own for the rules it lacks. */
export const MESSAGE_TEXTS = {
  heading: 'Messages',
  /** spec part 2 §2: while the session is checked */
  checkingAuth: 'Checking authentication...',
  empty: 'No messages yet',
  sendFailed: 'Failed to send message',
  editFailed: 'Failed to edit message',
  deleteFailed: 'Failed to delete message',
  notAuthenticated: 'Not authenticated',
  noResponse: 'No response from server',
  loadFailed: 'Failed to load messages',
  readFailed: 'Failed to update message read status',
  recipientNotFound: 'Could not find recipient',
  userNotFound: 'User not found',
  profileLoadFailed: 'Failed to load user profile',
  chatListFailed: 'Failed to load chat previews',
  emptyMessage: 'Message cannot be empty',
  updated: 'Message updated successfully',
  deleted: 'Message deleted successfully',
  attachmentTooLarge: 'File size must be less than 10MB',
  // not in the spec: our own words for rules the spec does not have
  messageNotFound: 'Message not found',
  tooLong: (max: number) => `Message must be at most ${max} characters`,
  editOwnOnly: 'You can only edit your own messages',
  deleteOwnOnly: 'You can only delete your own messages',
  cannotMessage: 'You cannot message this user',
  sendRateLimited: 'You are sending messages too fast. Please wait a moment.',
  uploadRateLimited: 'Too many uploads. Please wait a moment.',
  /** a user's attachments processing at once (MAX_PROCESSING_ATTACHMENTS_PER_USER) */
  attachmentsProcessing: (limit: number) => `You have ${limit} files still being processed. Wait for one to finish, then attach another.`,
  /** a user's attachments not sent in a message (MESSAGE_UNSENT_ATTACHMENTS_MAX_BYTES) */
  unsentAttachmentsFull: (maxMegabytes: number, hours: number) =>
    `Your files not sent yet would add up to more than ${maxMegabytes} MB. Send them first; unsent files are removed after ${hours} hours.`,
  attachmentNotFound: 'Attachment not found',
  attachmentFailed: 'The attachment could not be processed',
  attachmentInvalidType: 'Invalid file type',
  replyNotInConversation: 'The message you replied to is not in this conversation',
  reportNotFound: 'Report not found',
  reportReasonRequired: 'Please say why you are reporting this message',
  reportContentRemoved: 'The reported message was removed.',
  reportSenderSuspended: 'The account was suspended and signed out everywhere.',
  reportNoSender: 'The account that sent this message no longer exists.',
} as const;

/** Subscription tiers, subscribing, Premium, payments (issue 11; spec part 2 §2, §8). */
export const BILLING_TEXTS = {
  /** a client's idempotency key already spent on another purchase (another kind, creator, tier, post or message): 409, nothing charged */
  requestKeyUsed: 'This request key was already used',
  /** the ledger's words for money paid at the provider for a plan deleted meanwhile (refunded, docs/payments.md) */
  planGone: 'A plan no longer available',
  tierAdded: 'Subscription tier added successfully',
  tierUpdated: 'Subscription tier updated successfully',
  tierDeleted: 'Subscription tier deleted successfully',
  tierAddFailed: 'Failed to add subscription tier',
  tierUpdateFailed: 'Failed to update subscription tier',
  tierDeleteFailed: 'Failed to delete subscription tier',
  loadFailed: 'Failed to load subscription details',
  subscribed: "You've successfully subscribed!",
  subscribeFailed: 'Failed to process subscription. Please try again.',
  signInToSubscribe: 'You must be logged in to subscribe',
  premiumTierMissing: 'Could not find premium subscription tier.',
  premiumSubscribed: "You've successfully subscribed to Premium!",
  noTiers: 'No subscription tiers available yet.',
  noPaymentHistory: 'No payment history available',
  noPaymentMethods: 'No Payment Methods Added',
  // Not in the spec: our own rules, phrased in its style.
  tierSignIn: 'Please sign in to manage subscription tiers',
  tierCreatorsOnly: 'Only creators can manage subscription tiers',
  tierNotFound: 'Subscription tier not found',
  tierNameRequired: 'Tier name is required',
  tierNameTooLong: 'Tier name must be at most 60 characters',
  tierNameTaken: 'You already have a tier with this name',
  tierDescriptionTooLong: 'Description must be at most 500 characters',
  priceInvalid: 'Price must be a number greater than 0',
  priceDecimals: 'Price can have at most 2 decimal places',
  priceTooHigh: 'Price must be at most R100,000',
  /** the tier form, beside the price, when the tier has subscribers (issue 22: grandfathered prices) */
  priceChangeNote: 'A new price applies to new subscribers only. A lower price also applies to existing subscribers at their next renewal.',
  requestKeyInvalid: 'Invalid request key',
  resumeCreatorUnavailable: 'This creator’s profile is no longer available, so this subscription cannot be resumed.',
  intervalInvalid: 'Billing interval must be weekly, monthly or annually',
  discountInvalid: 'Discount must be a whole number from 0 to 100',
  tierArchived: 'This tier has subscribers, so it was archived: new fans no longer see it and current subscribers keep it.',
  alreadySubscribed: 'You are already subscribed to this creator.',
  alreadyPremium: 'You are already Premium.',
  selfSubscribe: 'You cannot subscribe to yourself.',
  subscriptionNotFound: 'Subscription not found',
  tierChangeScheduled: (tierName: string, date: string) => `You will move to ${tierName} on ${date}, when your current period ends.`,
  canceled: (date: string) => `Subscription cancelled. You keep access until ${date}.`,
  resumed: 'Subscription resumed. It will renew as before.',
  builtinProviderLabel: 'Test payments: no card is charged',
  stripeProviderLabel: 'Payments by Stripe',
  checkoutSuccess: 'Payment received: your subscription starts in a moment.',
  // issue 22: the confirmation before every charge, its refusal, and a renewal that failed
  confirmedAmountMissing: 'Confirm the amount before paying.',
  priceChanged: (amount: string) => `The price is now ${amount}. Nothing was charged: check the new price and confirm again.`,
  /** the policy pages' own words (terms of service, Subscriptions and payments) */
  nonRefundable: 'Subscription fees are non-refundable, except where the law requires a refund.',
  cancelAnyTime: 'Cancelling stops future renewals; access continues until the end of the period already paid for.',
  renewalFailed: (date: string) =>
    `Your last renewal payment failed. You keep access until ${date} while we keep trying the charge; if it still fails by then, the subscription ends and you can subscribe again from the creator's page. To stop it instead, cancel it.`,
} as const;


