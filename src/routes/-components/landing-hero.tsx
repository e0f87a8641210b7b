import { Link } from '@tanstack/react-router';
import { ArrowRight, Lock, Sparkles, Users, Wallet } from 'lucide-react';
import { LANDING } from '../../../common/texts';
import { buttonClasses } from '../../components/ui/button';

const HIGHLIGHTS = [
  { Icon: Wallet, text: 'Earn from subscriptions' },
  { Icon: Lock, text: 'Premium content, your rules' },
  { Icon: Users, text: 'Direct connection with fans' },
] as const;

/** The visitor's landing hero (spec part 1 §1): headline, sub-line, Sign Up Free and Sign In. */
export function LandingHero() {
  return (
    <section aria-labelledby="landing-headline" className="relative isolate overflow-hidden">
      <div aria-hidden="true" className="absolute inset-0 -z-10">
        <div className="absolute -top-40 left-1/2 h-[36rem] w-[64rem] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,rgb(139_92_246/0.35),transparent)] blur-2xl" />
        <div className="absolute top-10 left-1/2 h-[22rem] w-[40rem] translate-x-[10%] rounded-full bg-[radial-gradient(closest-side,rgb(236_72_153/0.16),transparent)] blur-3xl" />
        <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(255_255_255/0.035)_1px,transparent_1px),linear-gradient(to_bottom,rgb(255_255_255/0.035)_1px,transparent_1px)] bg-[size:56px_56px] [mask-image:radial-gradient(ellipse_at_top,black_30%,transparent_75%)]" />
      </div>

      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 pt-16 pb-14 text-center md:pt-28 md:pb-20">
        <span className="inline-flex items-center gap-2 rounded-full border border-accent/30 bg-accent-soft px-3.5 py-1.5 text-xs font-semibold text-violet-200">
          <Sparkles aria-hidden="true" className="size-3.5" />
          For creators and the fans who love them
        </span>
        <h1
          id="landing-headline"
          className="mt-6 text-4xl leading-[1.08] font-extrabold tracking-tight text-balance sm:text-5xl md:text-7xl"
        >
          <span className="text-gradient">{LANDING.headline}</span>
        </h1>
        <p className="mt-6 max-w-2xl text-base leading-7 text-pretty text-muted md:text-lg md:leading-8">
          {LANDING.subline}
        </p>
        <div className="mt-9 flex w-full flex-col items-stretch justify-center gap-3 sm:w-auto sm:flex-row sm:items-center">
          <Link to="/auth" search={{ tab: 'signup' }} className={buttonClasses({ size: 'lg' })}>
            {LANDING.signUpButton}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
          <Link to="/auth" search={{ tab: 'signin' }} className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
            {LANDING.signInButton}
          </Link>
        </div>
        <ul className="mt-10 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-subtle">
          {HIGHLIGHTS.map(({ Icon, text }) => (
            <li key={text} className="flex items-center gap-2">
              <Icon aria-hidden="true" className="size-4 text-violet-300" />
              {text}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
