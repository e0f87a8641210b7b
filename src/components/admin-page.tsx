import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { DeadEnd } from './dead-end';

/**
 * The frame of an admin screen (/admin/payments, /admin/reports): its heading and what it is for,
 * then the screen. The server refuses anyone but admins; `forbidden` (its FORBIDDEN answer) shows
 * 'Admins only' instead, naming who the page is for.
 */
export function AdminPage({ title, description, forbidden, operators, children }: { title: string; description: string; forbidden: boolean; operators: string; children: ReactNode }) {
  if (forbidden) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 pt-6 pb-10 md:px-6 md:pt-10">
        <DeadEnd icon={ShieldAlert} title="Admins only" description={`This page is for the platform's ${operators}.`} />
      </div>
    );
  }
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 pt-6 pb-10 md:px-6 md:pt-10">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-muted">{description}</p>
      </div>
      {children}
    </div>
  );
}
