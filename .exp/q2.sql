\timing on
\o /dev/null
select coalesce(-sum(amount_cents) filter (where available_at is null or available_at <= now()), 0),
                 coalesce(-sum(amount_cents) filter (where available_at > now()), 0),
                 coalesce(sum(amount_cents) filter (where kind in ('payout_requested', 'payout_failed')), 0),
                 coalesce(-sum(amount_cents) filter (where kind not in ('payout_requested', 'payout_failed', 'hold_released', 'loss_written_off')), 0)
          from journal_lines where account_id in ('22222222-2222-2222-2222-222222222222','33333333-3333-3333-3333-333333333333');
\g
\g
\echo chart-group
select width_bucket(l.occurred_at, array['2025-12-01','2026-01-01','2026-02-01','2026-03-01','2026-04-01','2026-05-01','2026-06-01','2026-07-01','2026-08-01','2026-09-01','2026-10-01','2026-11-01','2026-12-01']::timestamptz[]) as period, -sum(l.amount_cents)
 from journal_lines l join ledger_accounts a on a.id = l.account_id where a.owner_id = '11111111-1111-1111-1111-111111111111' and a.kind in ('creator_pending','creator_available')
 and l.kind in ('charge', 'refund_decided', 'refund_not_made', 'refund', 'dispute_opened', 'dispute_won') and l.occurred_at >= '2025-12-01' group by 1;
\g
\g
\echo chart-filters
select 
 -sum(l.amount_cents) filter (where l.occurred_at < '2026-01-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-01-01' and l.occurred_at < '2026-02-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-02-01' and l.occurred_at < '2026-03-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-03-01' and l.occurred_at < '2026-04-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-04-01' and l.occurred_at < '2026-05-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-05-01' and l.occurred_at < '2026-06-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-06-01' and l.occurred_at < '2026-07-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-07-01' and l.occurred_at < '2026-08-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-08-01' and l.occurred_at < '2026-09-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-09-01' and l.occurred_at < '2026-10-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-10-01' and l.occurred_at < '2026-11-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-11-01' and l.occurred_at < '2026-12-01'),
 -sum(l.amount_cents) filter (where l.occurred_at >= '2026-12-01')
 from journal_lines l join ledger_accounts a on a.id = l.account_id where a.owner_id = '11111111-1111-1111-1111-111111111111' and a.kind in ('creator_pending','creator_available')
 and l.kind in ('charge', 'refund_decided', 'refund_not_made', 'refund', 'dispute_opened', 'dispute_won') and l.occurred_at >= '2025-12-01';
\g
\g
\echo chart-lateral
select p.i, (select -sum(l.amount_cents) from journal_lines l where l.account_id in ('22222222-2222-2222-2222-222222222222','33333333-3333-3333-3333-333333333333') and l.kind in ('charge', 'refund_decided', 'refund_not_made', 'refund', 'dispute_opened', 'dispute_won') and l.occurred_at >= p.s and (p.e is null or l.occurred_at < p.e))
from (select i, s, lead(s) over (order by i) as e from unnest(array['2025-12-01','2026-01-01','2026-02-01','2026-03-01','2026-04-01','2026-05-01','2026-06-01','2026-07-01','2026-08-01','2026-09-01','2026-10-01','2026-11-01','2026-12-01']::timestamptz[]) with ordinality u(s, i)) p;
\g
\g
