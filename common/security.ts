import { z } from 'zod';
import { passwordSchema } from './auth-schemas';
import { entityId } from './ids';
import { LIMITS } from './limits';
import { safeString } from './text-schema';
import { AUTH_TEXTS } from './texts';

/**
 * Security and the account lifecycle (issue 13, part B): input schemas, DTOs, limits and texts
 * shared by the server and the screens /settings/security and /settings/account/management.
 */

export const TWO_FACTOR = {
  /** RFC 6238 defaults every authenticator app understands */
  digits: 6,
  periodSeconds: 30,
  /** steps either side of now that still count (clock drift of the phone) */
  driftSteps: 1,
  recoveryCodeCount: 10,
  /** how long the code step of a sign-in waits after the password */
  challengeTtlSeconds: 300,
  /** code attempts per sign-in challenge, and per account per window */
  attemptsPerChallenge: 5,
  issuer: 'CreatorHub',
} as const;

export const DATA_EXPORT = {
  /** a finished archive is downloadable this long, then maintenance removes it */
  lifetimeMs: 7 * 24 * 60 * 60_000,
  /** one new export per user per this long (a failed one does not count: the user may ask again at once) */
  cooldownMs: 10 * 60_000,
  /** builds started before the export fails for good (a worker killed mid-build twice is still retried) */
  maxRuns: 3,
} as const;

/**
 * What "Download my data" holds, said on the screen and in the zip's README. The media are those
 * stored: the worker keeps only the processed files (re-encoded, watermarked when the creator's
 * watermark is on), not the bytes as uploaded.
 */
export const DATA_EXPORT_TEXTS = {
  description:
    'A zip of your profile, your posts with their media as published (processed, with your watermark if it is on; the files as uploaded are not kept), comments, messages, subscriptions and payments. We email you a link; only you can open it, for 7 days. A new export replaces the previous one.',
  readme: [
    'Your CreatorHub data.',
    '',
    'profile.json, posts.json, comments.json, messages.json, subscriptions.json, payments.json: your rows, as JSON.',
    'media/<post id>/: each post\'s media as published: processed, with your watermark if it was on when the post was made.',
    'The files as you uploaded them are not kept after processing, so they are not in this archive.',
    '',
  ].join('\n'),
  /** the export-ready e-mail's words: the same truth as the screen (processed media, uploads not kept) */
  mail: 'The copy of your data you asked for is ready: your profile, your posts with their media as published (processed, with your watermark if it was on; the files as uploaded are not kept), comments, messages, subscriptions and payments.',
  /** the reason a failed export shows (data_exports.failure_reason) */
  failed: 'The archive could not be built. Ask for a new one.',
} as const;

export const SECURITY_TEXTS = {
  twoFactorEnabled: { title: 'Two-factor authentication on', description: 'Keep your recovery codes somewhere safe.' },
  twoFactorDisabled: { title: 'Two-factor authentication off', description: 'Signing in now needs only your password.' },
  invalidCode: 'That code is not valid. Try the current code from your app.',
  challengeExpired: 'Your sign-in took too long. Please enter your email and password again.',
  notEnrolling: 'Start setting up two-factor authentication first.',
  alreadyEnabled: 'Two-factor authentication is already on.',
  notEnabled: 'Two-factor authentication is not on.',
  codeRequired: 'Enter the code from your authenticator app.',
  wrongPassword: 'The password is not correct.',
  passwordChanged: { title: 'Password changed', description: AUTH_TEXTS.signedOutOthers.description },
  sessionSignedOut: { title: 'Session signed out', description: 'That device has been signed out.' },
  sessionNotFound: 'Session not found',
  exportRequested: {
    title: 'Preparing your data',
    description: 'We will email you a download link when your archive is ready.',
  },
  exportTooSoon: 'An export was started a few minutes ago. Please wait before asking for another.',
  exportNotFound: 'Export not found',
} as const;

/** A 6-digit authenticator code or a recovery code (xxxxx-xxxxx); spaces typed in are ignored. */
export const twoFactorCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'Enter the code from your authenticator app')
      .max(32, 'That code is not valid')
      .regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/, 'Enter the 6-digit code from your app or a recovery code'),
  );

export const sixDigitCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

export const VerifyTwoFactorSignInInput = z.object({ code: twoFactorCodeSchema });
export type VerifyTwoFactorSignInInput = z.output<typeof VerifyTwoFactorSignInInput>;

export const ConfirmTwoFactorInput = z.object({ code: sixDigitCodeSchema });
export type ConfirmTwoFactorInput = z.output<typeof ConfirmTwoFactorInput>;

export const DisableTwoFactorInput = z.object({ code: twoFactorCodeSchema });
export type DisableTwoFactorInput = z.output<typeof DisableTwoFactorInput>;

const currentPasswordSchema = safeString('single-line').min(1, 'Enter your current password').max(LIMITS.maxPasswordLength);

export const ChangePasswordInput = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: passwordSchema,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    path: ['newPassword'],
    message: 'Choose a password different from the current one',
  });
export type ChangePasswordInput = z.output<typeof ChangePasswordInput>;

export const RevokeSessionInput = z.object({ sessionId: entityId(SECURITY_TEXTS.sessionNotFound) });
export type RevokeSessionInput = z.output<typeof RevokeSessionInput>;

/** What a destructive account action asks for again: the password, and a code with two-factor on. */
export const ConfirmIdentityInput = z.object({
  password: currentPasswordSchema,
  code: twoFactorCodeSchema.optional(),
});
export type ConfirmIdentityInput = z.output<typeof ConfirmIdentityInput>;

export const SetAccountHiddenInput = z.object({ hidden: z.boolean() });

export interface SessionDto {
  id: string;
  device: string;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
}

export interface SecurityOverviewDto {
  twoFactorEnabled: boolean;
  recoveryCodesLeft: number;
}

export interface TwoFactorEnrolmentDto {
  /** the otpauth:// URI as a QR code (data: URL of a PNG) */
  qrCode: string;
  /** the same secret in base32, for typing it into an app by hand */
  secret: string;
}

export interface DataExportDto {
  id: string;
  status: 'pending' | 'ready' | 'failed';
  createdAt: Date;
  expiresAt: Date;
  byteSize: number | null;
  downloadUrl: string | null;
  /** why a failed export failed, for the screen */
  failureReason: string | null;
}

export const exportDownloadPath = (exportId: string) => `/exports/${exportId}/download`;

/** What sign-in answers when the password was right and the account wants a code. */
export interface TwoFactorRequired {
  twoFactorRequired: true;
}


/** The spec's account management words (part 2 §2, §8) and ours beside them. */
export const ACCOUNT_TEXTS = {
  pageTitle: 'Account Settings',
  hidden: 'Account Hidden',
  visible: 'Account Visible',
  hideFailed: 'Failed to update account visibility',
  dataDeleted: 'Data Deleted',
  deleteDataFailed: 'Failed to delete user data',
  accountDeleted: 'Account Deleted',
  deleteAccountFailed: 'Failed to delete account. Please try again later.',
} as const;
