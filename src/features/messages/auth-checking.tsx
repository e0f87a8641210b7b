import type { ReactNode } from 'react';
import { MESSAGE_TEXTS } from '../../../common/texts';

/** What the messaging screens show while the session is checked (spec part 2 §2). */
export function AuthChecking({ children }: { children?: ReactNode }) {
  return (
    <div aria-busy="true" className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 pt-6 pb-10 md:px-6 md:pt-10">
      <p role="status" className="text-sm text-muted">
        {MESSAGE_TEXTS.checkingAuth}
      </p>
      {children}
    </div>
  );
}
