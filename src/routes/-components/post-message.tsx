import { Link } from '@tanstack/react-router';
import { FileX } from 'lucide-react';
import { SHELL_TEXTS } from '../../../common/texts';
import { Button, buttonClasses } from '../../components/ui/button';

/** The post page's dead ends: 'Post not found', 'Post ID is required', a failed load. */
export function PostMessage({ title, retry }: { title: string; retry?: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-card border border-border bg-surface px-6 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-surface-raised text-subtle">
        <FileX aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-5 text-xl font-bold tracking-tight">{title}</h1>
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
