// The composer's fields share one look; its parts live in files of their own since issue 48.
export const FIELD_BASE = 'rounded-lg border border-border bg-surface px-3 py-2 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';
export const FIELD = `w-full ${FIELD_BASE}`;
