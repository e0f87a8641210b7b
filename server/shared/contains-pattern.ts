/** `q` as a LIKE pattern for "contains", its wildcards taken literally (creator and post searches). */
export const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
