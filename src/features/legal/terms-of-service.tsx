import { Link } from '@tanstack/react-router';
import { BILLING_TEXTS, BRAND } from '../../../common/texts';
import { LegalPage, SAFETY_EMAIL, SUPPORT_EMAIL } from './legal-page';

const name = BRAND.name;

export function TermsOfService() {
  return (
    <LegalPage
      title="Terms and Conditions"
      intro={
        <p>
          These terms are the agreement between you and {name} for your use of the platform. By creating an account
          or using {name} you accept them. Please also read our <Link to="/privacy">Privacy Policy</Link>, which
          explains how we handle your personal information.
        </p>
      }
      sections={[
        [
          'eligibility',
          'Eligibility',
          <p>
            You must be <strong>at least 18 years old</strong> to create an account or use {name}. By signing up you
            confirm that you are 18 or over and that the information you give us, including your date of birth, is
            accurate. We may ask for proof of age and may close accounts that do not meet this requirement.
          </p>,
        ],
        [
          'accounts',
          'Your account',
          <p>
            You are responsible for keeping your password secure and for everything that happens under your account.
            Tell us straight away if you believe your account has been used without your permission. One person may
            not create accounts to evade a suspension or ban.
          </p>,
        ],
        [
          'content',
          'Content you share',
          <>
            <p>
              You keep ownership of the content you post. By posting it you give {name} a non-exclusive, worldwide
              licence to host, store, display and distribute it on the platform to the audience you choose, for as
              long as it remains on the service.
            </p>
            <p>
              You must have all the rights needed to post your content, and everyone who appears in it must be an
              adult who has consented to its creation and publication.
            </p>
          </>,
        ],
        [
          'prohibited',
          'Prohibited content and conduct',
          <>
            <p>You may not use {name} to post, share or request:</p>
            <ul>
              <li>
                any material that sexualises, exploits or endangers children. We have{' '}
                <strong>zero tolerance</strong> for child sexual abuse and exploitation; see our{' '}
                <Link to="/csae-policy">CSAE Policy</Link>;
              </li>
              <li>content shared without the consent of the people in it, or content that infringes others' rights;</li>
              <li>harassment, threats, hate speech or content that promotes violence;</li>
              <li>spam, scams, malware or attempts to access accounts or systems without permission.</li>
            </ul>
            <p>We may remove content and suspend or close accounts that break these rules.</p>
          </>,
        ],
        [
          'subscriptions',
          'Subscriptions and payments',
          <>
            <p>
              Creators set the price and billing interval of their subscription tiers; prices are shown in South
              African rand (R). A subscription gives access to the creator's premium content for the period paid for.
            </p>
            <p>
              Payments are handled by third-party payment providers. {name} does not store your card data.
            </p>
            <p>
              {/* the same words the fan confirms before paying (the purchase dialog) */}
              <strong>{BILLING_TEXTS.nonRefundable}</strong> {BILLING_TEXTS.cancelAnyTime}
            </p>
          </>,
        ],
        [
          'reporting',
          'Reporting and moderation',
          <p>
            You can report a post, profile or message from within the app. We review reports and act on them, and we
            treat reports about child safety as our highest priority. Urgent safety concerns can also be sent to{' '}
            <a href={`mailto:${SAFETY_EMAIL}`}>{SAFETY_EMAIL}</a>.
          </p>,
        ],
        [
          'termination',
          'Suspension and termination',
          <p>
            You may delete your account at any time in Settings. We may suspend or terminate your access if you break
            these terms, if required by law, or to protect our users. Where we remove child sexual abuse material we
            preserve and report it as the law requires.
          </p>,
        ],
        [
          'liability',
          'Disclaimers and liability',
          <p>
            {name} is provided "as is". We work to keep it available and secure but cannot promise it will always be
            uninterrupted or error-free. To the extent the law allows, we are not liable for indirect or consequential
            losses arising from your use of the platform. Nothing in these terms limits rights you have under
            consumer protection law.
          </p>,
        ],
        [
          'changes',
          'Changes to these terms',
          <p>
            We may update these terms. If a change is significant we will tell you before it takes effect. Continuing
            to use {name} after that means you accept the updated terms. Questions? Contact{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
          </p>,
        ],
      ]}
    />
  );
}
