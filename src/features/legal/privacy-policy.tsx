import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { BRAND } from '../../../common/texts';
import { LegalPage, PRIVACY_EMAIL, SAFETY_EMAIL } from './legal-page';

const name = BRAND.name;

export function PrivacyPolicy({ backToHome }: { backToHome: ReactNode }) {
  return (
    <LegalPage
      title="Privacy Policy"
      top={<div className="mb-8">{backToHome}</div>}
      intro={
        <p>
          This policy explains what personal information {name} collects when you use the platform, why we
          collect it, how we protect it and the choices you have. It applies to visitors, fans and creators alike.
        </p>
      }
      sections={[
        [
          'information-we-collect',
          'Information we collect',
          <>
            <p>We collect only what we need to run the service:</p>
            <ul>
              <li>
                <strong>Account details</strong> you give us when you sign up: email address, username, first name,
                surname, date of birth and your password (which we store only as a one-way hash).
              </li>
              <li>
                <strong>Profile information</strong> you choose to add, such as a display name, avatar, bio,
                categories and links.
              </li>
              <li>
                <strong>Content</strong> you upload or write: posts, media files, comments, messages, likes and
                bookmarks.
              </li>
              <li>
                <strong>Subscription records</strong>: which creators and tiers you subscribe to, and when a
                subscription starts and ends.
              </li>
              <li>
                <strong>Technical information</strong> such as your IP address, browser type and the times you sign
                in, which we use to keep accounts secure and to prevent abuse.
              </li>
            </ul>
          </>,
        ],
        [
          'how-we-use-information',
          'How we use your information',
          <ul>
            <li>To create and secure your account, confirm your email address and let you sign in.</li>
            <li>To show your profile and content to the audience you choose, and to deliver your messages.</li>
            <li>To give subscribers access to the premium content they have paid for.</li>
            <li>To send you service emails, such as account confirmation and password reset messages.</li>
            <li>
              To keep the platform safe: detecting fraud and abuse, enforcing our Terms of Service and our Child
              Sexual Abuse and Exploitation (CSAE) Policy, and meeting our legal obligations.
            </li>
          </ul>,
        ],
        [
          'payments',
          'Payments and card data',
          <>
            <p>
              Payments for subscriptions and upgrades are handled by third-party payment providers. When you pay,
              your card details are entered with and processed by that provider under its own privacy policy.
            </p>
            <p>
              <strong>{name} does not store your card data.</strong> We keep only the records needed to manage your
              subscriptions, such as the plan, the amount, the date and the status of each payment.
            </p>
          </>,
        ],
        [
          'sharing',
          'When we share information',
          <>
            <p>We do not sell your personal information. We share it only:</p>
            <ul>
              <li>with service providers who host, store, email or process payments for us, under contract;</li>
              <li>with other users, to the extent you make your profile and content visible to them;</li>
              <li>
                with law enforcement or child-protection authorities when the law requires it or when we report
                suspected child sexual abuse or exploitation;
              </li>
              <li>to protect the rights, safety and property of our users, the public or {name}.</li>
            </ul>
          </>,
        ],
        [
          'cookies',
          'Cookies',
          <p>
            We use a single essential cookie to keep you signed in. It is marked HttpOnly so scripts cannot read it,
            and it expires after a period of inactivity or when you sign out. We do not use advertising cookies.
          </p>,
        ],
        [
          'retention',
          'How long we keep information',
          <p>
            We keep your account information for as long as your account exists. When you delete content or your
            account, we remove it from the service and delete the stored files, except where we must keep certain
            records for legal, safety or fraud-prevention reasons.
          </p>,
        ],
        [
          'your-rights',
          'Your choices and rights',
          <>
            <p>
              You can view and update your profile in Settings, control who can see your profile, hide your account,
              and delete your content or your whole account at any time.
            </p>
            <p>
              Depending on where you live, you may also have the right to ask for a copy of your information, to have
              it corrected or erased, or to object to some uses of it. Contact us at{' '}
              <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a> and we will respond within the time the law
              requires.
            </p>
          </>,
        ],
        [
          'age',
          'Age requirement',
          <p>
            {name} is only for people aged 18 or over. We do not knowingly collect information from anyone under 18.
            If we learn that an account belongs to a minor, we close it. To report a concern, email{' '}
            <a href={`mailto:${SAFETY_EMAIL}`}>{SAFETY_EMAIL}</a>.
          </p>,
        ],
        [
          'security',
          'Security',
          <p>
            We protect your information with encryption in transit, hashed passwords, access controls and
            monitoring. No system is perfectly secure, so please use a strong, unique password and tell us promptly
            if you suspect someone else has used your account.
          </p>,
        ],
        [
          'changes',
          'Changes to this policy',
          <p>
            We may update this policy from time to time. When we make significant changes we will tell you on the
            platform or by email before they take effect. The date at the top shows when it last changed. See also our{' '}
            <Link to="/terms">Terms of Service</Link>.
          </p>,
        ],
      ]}
    />
  );
}
