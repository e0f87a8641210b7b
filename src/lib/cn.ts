import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names. There is no class merging (tailwind-merge): a caller's className adds to a
 * component's classes and must not fight them (two sizes, two radii); variations are props.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
