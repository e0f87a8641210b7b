import type { ReactNode } from 'react';

/** Legal pages are dated February 2025 (spec part 1 §9, part 2 §1). */
export const LEGAL_DATE = 'February 2025';
export const SAFETY_EMAIL = 'safety@creatorhub.app';
export const PRIVACY_EMAIL = 'privacy@creatorhub.app';
export const SUPPORT_EMAIL = 'support@creatorhub.app';

interface LegalPageProps {
  title: string;
  intro: ReactNode;
  /** Sections as [id, heading, body]; the table of contents is built from them. */
  sections: ReadonlyArray<readonly [id: string, heading: string, body: ReactNode]>;
  top?: ReactNode;
  bottom?: ReactNode;
}

/** A readable long-form policy page with a table of contents. */
export function LegalPage({ title, intro, sections, top, bottom }: LegalPageProps) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 md:px-6 md:py-16">
      {top}
      <header className="border-b border-border pb-8">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{title}</h1>
        <p className="mt-3 text-sm text-subtle">Last updated: {LEGAL_DATE}</p>
        <div className="mt-6 text-base leading-7 text-muted">{intro}</div>
      </header>

      <nav aria-label="On this page" className="mt-8 rounded-card border border-border bg-surface p-5">
        <h2 className="text-sm font-semibold uppercase tracking-wider text-subtle">On this page</h2>
        <ol className="mt-3 grid list-decimal gap-1.5 pl-5 text-sm text-muted sm:grid-cols-2">
          {sections.map(([id, heading]) => (
            <li key={id}>
              <a href={`#${id}`} className="hover:text-foreground hover:underline">
                {heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="mt-10 flex flex-col gap-10">
        {sections.map(([id, heading, body], index) => (
          <section key={id} id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
            <h2 id={`${id}-heading`} className="text-xl font-semibold tracking-tight">
              {index + 1}. {heading}
            </h2>
            <div className="mt-3 flex flex-col gap-3 text-[15px] leading-7 text-muted [&_a]:text-violet-300 [&_a]:underline [&_a]:underline-offset-2 [&_strong]:text-foreground [&_ul]:flex [&_ul]:list-disc [&_ul]:flex-col [&_ul]:gap-1.5 [&_ul]:pl-5">
              {body}
            </div>
          </section>
        ))}
      </div>
      {bottom}
    </article>
  );
}
