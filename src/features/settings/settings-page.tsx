import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { SETTINGS_TEXTS } from '../../../common/texts';
import { buttonClasses } from '../../components/ui/button';
import type { SettingsPath } from './settings-menu';

/**
 * The frame of every settings screen: the spec's heading, a short line under it, the screen, and
 * its Back link (each screen names its own target, as the spec lists them).
 */
export function SettingsPage({ title, description, back, children }: { title: string; description?: ReactNode; back: SettingsPath | '/'; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 md:px-6 md:py-12">
      <Link to={back} className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-2 mb-4' })}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {SETTINGS_TEXTS.back}
      </Link>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {description ? <p className="mt-1 mb-8 text-muted">{description}</p> : <div className="mb-8" />}
      {children}
    </div>
  );
}
