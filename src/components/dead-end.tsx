import { Link } from '@tanstack/react-router';
import type { LucideIcon } from 'lucide-react';
import { SHELL_TEXTS } from '../../common/texts';
import { Button, buttonClasses } from './ui/button';

/** A page's dead end ('Post not found', 'Profile not found', a failed load): what happened, a retry when it may help, a way home. */
export function DeadEnd({ icon: Icon, title, description, retry }: { icon: LucideIcon; title: string; description?: string; retry?: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-card border border-border bg-surface px-6 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-surface-raised text-subtle">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-5 text-xl font-bold tracking-tight">{title}</h1>
      {description ? <p className="mt-2 max-w-md text-muted">{description}</p> : null}
      <div className="mt-6 flex gap-3">
        {retry ? (
          <Button variant="secondary" onClick={retry}>
            {SHELL_TEXTS.tryAgain}
          </Button>
        ) : null}
        <Link to="/" className={buttonClasses({ variant: retry ? 'ghost' : 'primary' })}>
          {SHELL_TEXTS.notFoundHome}
        </Link>
      </div>
    </div>
  );
}
