import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BRAND } from '../../../common/texts';
import { Card } from '../../components/ui/card';

interface AuthLayoutProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** The centred card every /auth screen sits in, with the legal links under it. */
export function AuthLayout({ title, description, children }: AuthLayoutProps) {
  return (
    <div className="relative flex min-h-[calc(100dvh-4rem)] items-start justify-center px-4 py-10 md:items-center md:py-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-96 bg-[radial-gradient(ellipse_at_top,rgb(139_92_246/0.22),transparent_65%)]"
      />
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
          {description ? <p className="mt-2 text-sm text-muted">{description}</p> : null}
        </div>
        <Card className="p-6 md:p-8">{children}</Card>
        <p className="mt-6 text-center text-xs text-subtle">
          By continuing you agree to the {BRAND.name}{' '}
          <Link to="/terms" className="text-muted underline underline-offset-2 hover:text-foreground">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="text-muted underline underline-offset-2 hover:text-foreground">
            Privacy Policy
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
