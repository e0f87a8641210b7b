import { Link } from '@tanstack/react-router';
import { BRAND } from '../../../common/texts';
import { BrandMark } from './brand-link';
import { InstagramIcon, XIcon, YouTubeIcon } from '../../components/social-icons';

const link = 'text-sm text-muted transition-colors hover:text-foreground';

// Placeholders until the product has its own accounts (spec: "three social placeholder links").
const SOCIAL = [
  { name: 'X (Twitter)', href: 'https://x.com', Icon: XIcon },
  { name: 'Instagram', href: 'https://www.instagram.com', Icon: InstagramIcon },
  { name: 'YouTube', href: 'https://www.youtube.com', Icon: YouTubeIcon },
] as const;

/** Desktop-only footer (spec part 1 §2): about, quick links, social links, copyright. */
export function SiteFooter() {
  return (
    <footer className="mt-16 hidden border-t border-border bg-surface/40 md:block">
      <div className="mx-auto grid max-w-7xl grid-cols-3 gap-10 px-6 py-12">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="flex items-center gap-2.5 text-base font-bold">
            <BrandMark small />
            About {BRAND.name}
          </h2>
          <p className="mt-3 max-w-xs text-sm leading-6 text-muted">{BRAND.footerAbout}</p>
        </section>

        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="text-sm font-semibold uppercase tracking-wider text-subtle">
            Quick Links
          </h2>
          <ul className="mt-3 flex flex-col gap-2">
            <li>
              <Link to="/explore" className={link}>
                Explore Creators
              </Link>
            </li>
            <li>
              <Link to="/create" className={link}>
                Start Creating
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={link}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={link}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to="/csae-policy" className={link}>
                CSAE Policy
              </Link>
            </li>
          </ul>
        </nav>

        <section aria-labelledby="footer-follow">
          <h2 id="footer-follow" className="text-sm font-semibold uppercase tracking-wider text-subtle">
            Follow Us
          </h2>
          <ul className="mt-3 flex gap-2">
            {SOCIAL.map(({ name, href, Icon }) => (
              <li key={name}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={name}
                  className="flex size-10 items-center justify-center rounded-full border border-border text-muted transition-colors hover:border-accent/60 hover:text-foreground"
                >
                  <Icon className="size-4" />
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="border-t border-border">
        <p className="mx-auto max-w-7xl px-6 py-5 text-xs text-subtle">
          © {new Date().getFullYear()} {BRAND.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
