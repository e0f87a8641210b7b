import type { ErrorComponentProps } from '@tanstack/react-router';
import { TriangleAlert } from 'lucide-react';
import { SHELL_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { usePageTitle } from '../../lib/page-title';

/** An unhandled rendering or loading failure (spec part 1 §8): the message, and 'Try again' reloads. */
export function ErrorPage({ error }: ErrorComponentProps) {
  usePageTitle(SHELL_TEXTS.errorTitle);
  const message = error instanceof Error && error.message ? error.message : SHELL_TEXTS.errorFallback;
  return (
    <div role="alert" className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center px-4 py-16 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-danger/15 text-danger">
        <TriangleAlert aria-hidden="true" className="size-8" />
      </span>
      <h1 className="mt-6 text-2xl font-bold tracking-tight">{SHELL_TEXTS.errorTitle}</h1>
      <p className="mt-2 break-words text-muted">{message}</p>
      <Button size="lg" className="mt-8" onClick={() => window.location.reload()}>
        {SHELL_TEXTS.tryAgain}
      </Button>
    </div>
  );
}
