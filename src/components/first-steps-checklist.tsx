import { Link } from '@tanstack/react-router';
import { Check, ChevronRight, ListChecks } from 'lucide-react';
import { FIRST_STEPS, FIRST_STEPS_TEXTS as T, type FirstStep } from '../../common/first-steps';
import { cn } from '../lib/cn';
import { trpc } from '../lib/trpc';

/** Where each step is done: the real screen, never a page of its own. */
function StepLink({ step, className, children }: { step: FirstStep; className: string; children: React.ReactNode }) {
  switch (step) {
    case 'verify':
      return (
        <Link to="/settings/account/verification" className={className}>
          {children}
        </Link>
      );
    case 'payouts':
      return (
        <Link to="/settings/account/payment" className={className}>
          {children}
        </Link>
      );
    case 'tier':
      return (
        <Link to="/create" search={{ tab: 'tiers' }} className={className}>
          {children}
        </Link>
      );
    case 'post':
      return (
        <Link to="/create" className={className}>
          {children}
        </Link>
      );
  }
}

/**
 * A creator without a tier (issue 47 item 2): the steps to selling (verify, payout account, first
 * tier, first post) with progress, each a link to the screen that does it. Shown on the creator's
 * own profile and on /create; gone once the creator has a tier.
 */
export function FirstStepsChecklist({ className }: { className?: string }) {
  const steps = trpc.creators.firstSteps.useQuery(undefined, { staleTime: 30_000 });
  const data = steps.data;
  if (!data || data.tier) return null;
  const done = FIRST_STEPS.filter((s) => data[s]).length;
  const percent = Math.round((done / FIRST_STEPS.length) * 100);
  return (
    <section aria-labelledby="first-steps-heading" className={cn('rounded-card border border-accent/30 bg-surface p-5 md:p-6', className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-soft text-violet-200 ring-1 ring-accent/40">
            <ListChecks aria-hidden="true" className="size-5" />
          </span>
          <div className="min-w-0">
            <h2 id="first-steps-heading" className="font-semibold text-foreground">
              {T.title}
            </h2>
            <p className="text-sm text-muted">{T.intro}</p>
          </div>
        </div>
        <p className="text-sm font-medium text-foreground tabular-nums" data-testid="first-steps-progress">
          {T.progress(done, FIRST_STEPS.length)}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={T.title}
        aria-valuemin={0}
        aria-valuemax={FIRST_STEPS.length}
        aria-valuenow={done}
        aria-valuetext={T.progress(done, FIRST_STEPS.length)}
        className="mt-4 h-2 overflow-hidden rounded-full bg-border"
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
      </div>
      <ol className="mt-4 flex flex-col gap-2" aria-label={T.title}>
        {FIRST_STEPS.map((step, i) => {
          const isDone = data[step];
          return (
            <li key={step} data-step={step} data-done={isDone}>
              <StepLink
                step={step}
                className="group flex min-h-11 items-center gap-3 rounded-lg border border-border bg-surface-raised px-3 py-2 transition-colors hover:border-accent/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300"
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                    isDone ? 'bg-emerald-500/20 text-emerald-300' : 'border border-border text-muted',
                  )}
                >
                  {isDone ? <Check className="size-4" /> : i + 1}
                </span>
                <span className="min-w-0 flex-1">
                  <span className={cn('block text-sm font-medium', isDone ? 'text-muted line-through' : 'text-foreground')}>{T.steps[step].label}</span>
                  <span className="block text-xs text-muted">{T.steps[step].hint}</span>
                </span>
                {isDone ? <span className="text-xs font-medium text-emerald-300">{T.done}</span> : <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-muted group-hover:text-foreground" />}
              </StepLink>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
