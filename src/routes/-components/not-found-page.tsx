import { Link } from '@tanstack/react-router';
import { Compass } from 'lucide-react';
import { SHELL_TEXTS } from '../../../common/texts';
import { buttonClasses } from '../../components/ui/button';
import { usePageTitle } from '../../lib/page-title';

/** Any unknown path (spec part 2 §2 "Legal and fallback"). */
export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-gradient text-7xl font-black tracking-tight md:text-8xl">404</p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight md:text-3xl">{SHELL_TEXTS.notFound}</h1>
      <p className="mt-2 text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
        <Compass aria-hidden="true" className="size-4" />
        {SHELL_TEXTS.notFoundHome}
      </Link>
    </div>
  );
}
