import type { SecurityNoticeKind } from '../../common/jobs';
import { DATA_EXPORT_TEXTS } from '../../common/security';
import { BRAND } from '../../common/texts';
import { composeMail } from './compose';
import type { OutgoingMail } from './transport';

/**
 * Security mail (issue 13): always sent, whatever the notification settings say (the consent rule,
 * domain/notifications/email-consent.ts, leaves security mail out on purpose). Plain words, one
 * link to the screen where the user can act, no secret in the message.
 */

const NOTICES: Record<SecurityNoticeKind, { subject: string; line: string }> = {
  'new-sign-in': { subject: `New sign-in to your ${BRAND.name} account`, line: 'Your account was just signed in to.' },
  'two-factor-enabled': {
    subject: `Two-factor authentication turned on for ${BRAND.name}`,
    line: 'Two-factor authentication was turned on for your account. Signing in now asks for a code from your app.',
  },
  'two-factor-disabled': {
    subject: `Two-factor authentication turned off for ${BRAND.name}`,
    line: 'Two-factor authentication was turned off for your account. Signing in now needs only your password.',
  },
  'recovery-code-used': {
    subject: `A recovery code was used on ${BRAND.name}`,
    line: 'A recovery code was used to sign in to your account. Each code works once.',
  },
  'password-changed': {
    subject: `Your ${BRAND.name} password was changed`,
    line: 'The password of your account was changed and your other sessions were signed out.',
  },
};

export function securityNoticeMessage(
  appUrl: string,
  to: string,
  notice: { kind: SecurityNoticeKind; device: string | null; at: string },
): OutgoingMail {
  const { subject, line } = NOTICES[notice.kind];
  const when = new Date(notice.at).toUTCString();
  return composeMail(
    to,
    subject,
    [
      line,
      `When: ${when}${notice.device ? ` · Device: ${notice.device}` : ''}`,
      'If this was you, there is nothing to do. If it was not, change your password and sign out your other sessions now.',
    ],
    'Review your security settings',
    `${appUrl}/settings/security`,
  );
}

export function exportReadyMessage(appUrl: string, to: string, downloadPath: string, expiresAt: Date): OutgoingMail {
  return composeMail(
    to,
    `Your ${BRAND.name} data is ready to download`,
    [
      DATA_EXPORT_TEXTS.mail,
      `Only you can download it, while signed in, until ${expiresAt.toUTCString()}. Then it is deleted.`,
      'If you did not ask for it, change your password now.',
    ],
    'Download my data',
    `${appUrl}${downloadPath}`,
  );
}
