import { clsx, type ClassValue } from 'clsx';

/** Joins class names; the single place components compose Tailwind classes. */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
