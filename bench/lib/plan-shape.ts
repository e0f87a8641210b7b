import type { CompiledQuery } from 'kysely';
import type pg from 'pg';

/**
 * A query plan's shape: its nodes, each as its depth, type and the index or table it reads
 * ("2 Index Scan using posts_feed_idx on posts"), without costs, row counts, timings or
 * conditions. Two plans of the same query have the same shape when PostgreSQL reads the same
 * indexes in the same way; a size that turns an index walk into a sort or a scan changes it.
 */
export function planShape(lines: string[]): string[] {
  const shape: string[] = [];
  lines.forEach((line, n) => {
    const arrow = line.indexOf('->');
    // a node ("->  Limit"), the root, or a subplan's heading ("SubPlan 2", "InitPlan 1 (returns $0)")
    const heading = /^\s*(SubPlan|InitPlan|CTE)\b/.test(line);
    if (n > 0 && arrow < 0 && !heading) return;
    // the indentation is the depth (the same query's plans indent alike)
    const depth = arrow < 0 ? line.length - line.trimStart().length : arrow;
    const node = (arrow < 0 ? line : line.slice(arrow + 2))
      .trim()
      .replace(/\s*\((actual|never executed)[^)]*\)/g, '')
      .replace(/\s*\(cost=[^)]*\)/g, '')
      // the alias beside the table (posts p / posts posts_1) is the query's, not the plan's
      .replace(/^(.* on \S+)\s+\S+$/, '$1')
      // a subplan's number is the order the planner met it in, not part of the shape
      .replace(/^(SubPlan|InitPlan|CTE)\s+\d+.*$/, '$1')
      .trim();
    if (/^(Planning|Execution) Time/.test(node)) return;
    shape.push(`${depth} ${node}`);
  });
  return shape;
}

export interface ExplainedPlan {
  text: string[];
  shape: string[];
}

/** EXPLAIN (ANALYZE, COSTS OFF, FORMAT TEXT) of a statement as the app sent it, with its parameters. */
export async function explainPlan(pool: pg.Pool, query: CompiledQuery): Promise<ExplainedPlan> {
  const res = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, format text) ${query.sql}`, query.parameters as unknown[]);
  const text = res.rows.map((r) => r['QUERY PLAN']);
  return { text, shape: planShape(text) };
}

/** The first node where two shapes part, or null when they are the same. */
export function shapeDifference(a: string[], b: string[]): string | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `node ${i + 1}: "${a[i] ?? '(none)'}" became "${b[i] ?? '(none)'}"`;
  }
  return null;
}
