import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { LoadingPlaceholder } from '../../components/load-states';

/** One block of a security screen: a heading that names it, a line under it, its content. */
export function Section({ title, description, children, id }: { title: string; description: ReactNode; children: ReactNode; id?: string }) {
  return (
    <Card aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** A security block's data on its way: `rows` blocks the height of its lines. */
export function SectionSkeleton({ label, rows = 2 }: { label: string; rows?: number }) {
  return <LoadingPlaceholder label={label} rows={rows} rowClassName="h-12 w-full rounded-card" className="gap-3" />;
}
