import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { buttonClasses } from '../../components/ui/button';
import { usePageTitle } from '../../lib/page-title';
import type { SettingsPath } from './settings-menu';

/**
 * The frame of every settings screen: the spec's heading, a short line under it, the screen, and
 * its Back link (each screen names its own target, as the spec lists them). `aside` stands beside
 * the heading from the small breakpoint up, under it on a phone (the payment screen's provider note).
 * The heading is the document's title too, so a route file holds only this frame and its screen.
 */
export function SettingsPage({
  title,
  description,
  back,
  aside,
  children,
}: {
  title: string;
  description?: ReactNode;
  back: SettingsPath | '/';
  aside?: ReactNode;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 md:px-6 md:py-12">
      <Link to={back} className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-2 mb-4' })}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {SETTINGS_TEXTS.back}
      </Link>
      <div className="mb-8 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
          {description ? <p className="mt-1 text-muted">{description}</p> : null}
        </div>
        {aside}
      </div>
      {children}
    </div>
  );
}
