import { Link } from '@tanstack/react-router';
import { BRAND } from '../../../common/texts';
import { LegalPage, SAFETY_EMAIL } from './legal-page';

const name = BRAND.name;

export function CsaePolicy() {
  return (
    <LegalPage
      title="Child Sexual Abuse and Exploitation (CSAE) Policy"
      intro={
        <p>
          {name} has a <strong className="text-foreground">zero-tolerance policy</strong> towards child sexual abuse
          and exploitation. This page explains what we prohibit, how we prevent and detect it, how to report it and
          what happens when we find it.
        </p>
      }
      sections={[
        [
          'zero-tolerance',
          'Zero tolerance',
          <>
            <p>
              Any content or behaviour that sexually abuses, exploits or endangers children is forbidden on {name},
              without exception. This includes, but is not limited to:
            </p>
            <ul>
              <li>child sexual abuse material (CSAM) of any kind, whether real, drawn or computer-generated;</li>
              <li>sexualised images, text or comments about anyone under 18;</li>
              <li>grooming, sexual solicitation of minors, or attempts to arrange contact with a minor;</li>
              <li>sextortion, or trafficking or advertising of minors;</li>
              <li>links to, or requests for, any such material elsewhere.</li>
            </ul>
          </>,
        ],
        [
          'adults-only',
          'Adults only',
          <p>
            Every user must be 18 or over. We check the date of birth at sign-up, and everyone who appears in content
            must be an adult who has consented. Accounts we believe belong to minors are closed.
          </p>,
        ],
        [
          'reporting',
          'How to report',
          <>
            <p>
              <strong>In the app:</strong> use the report option on any post, profile or message. Reports about
              child safety go to the front of our review queue.
            </p>
            <p>
              <strong>By email:</strong> write to our safety team at{' '}
              <a href={`mailto:${SAFETY_EMAIL}`}>{SAFETY_EMAIL}</a>. Please include links or usernames, but do not
              send us copies of the material itself.
            </p>
            <p>
              If a child is in immediate danger, contact your local police or emergency services first.
            </p>
          </>,
        ],
        [
          'enforcement',
          'What we do',
          <ul>
            <li>We remove the content and permanently ban the accounts involved.</li>
            <li>
              We report apparent child sexual abuse material and exploitation to the appropriate authorities, such as
              the National Center for Missing &amp; Exploited Children (NCMEC) and local law enforcement.
            </li>
            <li>We preserve the relevant records as the law requires and cooperate fully with investigations.</li>
            <li>Banned users may not return under a new account.</li>
          </ul>,
        ],
        [
          'prevention',
          'Prevention',
          <p>
            We combine age requirements at sign-up, review of reported content and accounts, and controls on uploads
            and messaging to stop abuse before it spreads. Our staff handle these reports with care and
            confidentiality.
          </p>,
        ],
        [
          'related',
          'Related policies',
          <p>
            This policy forms part of our <Link to="/terms">Terms and Conditions</Link>. Our{' '}
            <Link to="/privacy">Privacy Policy</Link> explains when we share information with authorities.
          </p>,
        ],
      ]}
    />
  );
}
