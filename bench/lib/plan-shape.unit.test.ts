import { describe, expect, it } from 'vitest';
import { planShape, shapeDifference } from './plan-shape';

const at10k = [
  'Limit (actual time=0.1..0.2 rows=6 loops=1)',
  '  ->  Nested Loop Left Join (actual time=0.1..0.2 rows=6 loops=1)',
  '        ->  Index Scan using posts_feed_idx on posts p (actual time=0.01..0.1 rows=6 loops=1)',
  '              Filter: (status = \'published\'::text)',
  '        SubPlan 1',
  '          ->  Aggregate (actual time=0.01..0.01 rows=1 loops=6)',
  'Planning Time: 1.0 ms',
  'Execution Time: 0.3 ms',
];

describe('planShape', () => {
  it('keeps the nodes, their depth and the index each reads, and drops times, rows, aliases and conditions', () => {
    expect(planShape(at10k)).toEqual(['0 Limit', '2 Nested Loop Left Join', '8 Index Scan using posts_feed_idx on posts', '8 SubPlan', '10 Aggregate']);
  });

  it('calls the same plan at another size the same shape, and a sort instead of the index walk a change', () => {
    const sameAt1m = at10k.map((l) => l.replace(/actual time=[^ ]+ rows=\d+/, 'actual time=9.9..9.9 rows=6').replace(' p (', ' posts_1 (').replace('SubPlan 1', 'SubPlan 3'));
    expect(shapeDifference(planShape(at10k), planShape(sameAt1m))).toBeNull();
    const sorted = [...at10k];
    sorted[2] = '        ->  Sort (actual time=900..901 rows=6 loops=1)';
    expect(shapeDifference(planShape(at10k), planShape(sorted))).toBe('node 3: "8 Index Scan using posts_feed_idx on posts" became "8 Sort"');
  });
});
