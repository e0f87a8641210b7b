import { useEffect } from 'react';
import { BRAND } from '../../common/texts';

/** Sets document.title to "<page> · CreatorHub" (or the brand alone) while the page is shown. */
export function usePageTitle(title?: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${BRAND.name}` : BRAND.name;
  }, [title]);
}
