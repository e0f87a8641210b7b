import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Issue 45, books that cannot leak (docs/payments.md, "The ledger"): the two-party
 * `ledger_entries` becomes a double-entry ledger.
 *  - `ledger_accounts`: where money is (the chart of accounts): money at each provider, the
 *    platform's revenue, its losses, refunds owed, payouts in transit (each by its code), and each
 *    creator's pending and available earnings (by owner). Each names its currency (ZAR today); a
 *    creator's accounts keep their lines when the creator goes, naming no one (owner set null:
 *    "gone" is read from that).
 *  - `journal_entries`: one money event each (its kind, a key that makes it written once, what
 *    caused it), `journal_lines` its lines in signed bigint cents, debit positive. A deferred
 *    constraint trigger refuses, at commit, a journal whose lines do not sum to zero in each
 *    currency or that has fewer than two; other triggers refuse any update or delete of either
 *    table (a mistake is corrected by a reversing journal).
 *  - a pending line carries `available_at`: the earning counts as available from then, before
 *    the 'hold_released' journal that moves it has been posted.
 * The rows of `ledger_entries` become journals here (their missing side, the provider's money or
 * payouts in transit, added), and the table goes.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`
    create table ledger_accounts (
      id uuid primary key default gen_random_uuid(),
      code text unique,
      kind text not null check (kind in ('provider_cash', 'platform_revenue', 'losses', 'refunds_owed', 'payouts_in_transit', 'creator_pending', 'creator_available')),
      owner_id uuid references users(id) on delete set null,
      provider text,
      currency char(3) not null default 'ZAR',
      created_at timestamptz not null default now(),
      unique (id, currency),
      constraint ledger_accounts_owner check (owner_id is null or kind in ('creator_pending', 'creator_available')),
      -- a creator's accounts are found by their owner, and name no one once the creator is gone
      constraint ledger_accounts_code check ((code is null) = (kind in ('creator_pending', 'creator_available'))),
      constraint ledger_accounts_provider check ((provider is not null) = (kind = 'provider_cash'))
    )`.execute(db);
  await sql`create unique index ledger_accounts_owner_idx on ledger_accounts (owner_id, kind) where owner_id is not null`.execute(db);

  await sql`
    create table journal_entries (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in (
        'charge', 'hold_released', 'refund_decided', 'refund_settled', 'refund_not_made', 'refund',
        'dispute_opened', 'dispute_won', 'payout_requested', 'payout_paid', 'payout_failed', 'loss_written_off')),
      key text not null unique,
      reason text,
      payment_id uuid references payments(id) on delete restrict,
      payout_id uuid references payouts(id) on delete restrict,
      refund_request_id uuid references refund_requests(id) on delete restrict,
      occurred_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index journal_entries_payment_idx on journal_entries (payment_id, kind) where payment_id is not null`.execute(db);
  await sql`create index journal_entries_refund_request_idx on journal_entries (refund_request_id, kind) where refund_request_id is not null`.execute(db);
  await sql`create index journal_entries_payout_idx on journal_entries (payout_id) where payout_id is not null`.execute(db);

  await sql`
    create table journal_lines (
      id bigint generated always as identity primary key,
      journal_id uuid not null references journal_entries(id) on delete restrict,
      account_id uuid not null,
      currency char(3) not null,
      kind text not null,
      amount_cents bigint not null check (amount_cents <> 0),
      available_at timestamptz,
      occurred_at timestamptz not null,
      foreign key (account_id, currency) references ledger_accounts(id, currency) on delete restrict
    )`.execute(db);
  await sql`create index journal_lines_journal_idx on journal_lines (journal_id)`.execute(db);
  // a creator's figures: by date of charge (the chart, statements) and by date available (balances)
  await sql`create index journal_lines_account_idx on journal_lines (account_id, occurred_at) include (kind, amount_cents)`.execute(db);
  await sql`create index journal_lines_available_idx on journal_lines (account_id, available_at) include (amount_cents) where available_at is not null`.execute(db);
  await sql`create index journal_lines_month_idx on journal_lines (occurred_at) include (account_id, kind, amount_cents)`.execute(db);

  await sql`
    create function journal_must_balance() returns trigger language plpgsql as $$
    declare
      off record;
      lines int;
    begin
      select currency, sum(amount_cents) as total into off
        from journal_lines where journal_id = new.journal_id group by currency having sum(amount_cents) <> 0 limit 1;
      if found then
        raise exception 'journal % does not balance: % % off', new.journal_id, off.total, off.currency using errcode = '23514';
      end if;
      select count(*) into lines from journal_lines where journal_id = new.journal_id;
      if lines < 2 then
        raise exception 'journal % has % line(s): a journal moves money between at least two accounts', new.journal_id, lines using errcode = '23514';
      end if;
      if exists (select 1 from journal_lines l join journal_entries j on j.id = l.journal_id
                 where l.journal_id = new.journal_id and (l.kind <> j.kind or l.occurred_at <> j.occurred_at)) then
        raise exception 'journal % has lines of another kind or time than itself', new.journal_id using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function journal_needs_lines() returns trigger language plpgsql as $$
    begin
      if (select count(*) from journal_lines where journal_id = new.id) < 2 then
        raise exception 'journal % (%) has fewer than two lines', new.id, new.kind using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function ledger_is_append_only() returns trigger language plpgsql as $$
    begin
      raise exception '% is append-only: post a reversing journal instead', tg_table_name using errcode = '55000';
    end $$`.execute(db);
  await sql`create constraint trigger journal_lines_balance after insert on journal_lines deferrable initially deferred for each row execute function journal_must_balance()`.execute(db);
  await sql`create constraint trigger journal_entries_lines after insert on journal_entries deferrable initially deferred for each row execute function journal_needs_lines()`.execute(db);
  await sql`create trigger journal_lines_append_only before update or delete on journal_lines for each row execute function ledger_is_append_only()`.execute(db);
  await sql`create trigger journal_entries_append_only before update or delete on journal_entries for each row execute function ledger_is_append_only()`.execute(db);

  await sql`
    insert into ledger_accounts (code, kind) values
      ('platform_revenue', 'platform_revenue'), ('losses', 'losses'), ('refunds_owed', 'refunds_owed'), ('payouts_in_transit', 'payouts_in_transit')
  `.execute(db);
  await carryOverLedgerEntries(db);
  await sql`drop table ledger_entries`.execute(db);
}

/**
 * The old rows as journals. Old amounts were the parties' shares, positive for what they got, so
 * each becomes a credit (negated); the side the old table did not keep is the balancing line:
 * the provider's money for a payment, payouts in transit for a payout, refunds owed for a refund
 * decided and not made yet, losses for a write-off. A creator's row still in its hold stays
 * pending with its `available_at`; the rest is available.
 */
async function carryOverLedgerEntries(db: MigrationDb): Promise<void> {
  await sql`
    insert into ledger_accounts (code, kind, provider)
    select distinct 'provider_cash:' || p.provider, 'provider_cash', p.provider
    from payments p where exists (select 1 from ledger_entries e where e.payment_id = p.id)
    union
    select distinct 'provider_cash:' || o.provider, 'provider_cash', o.provider from payouts o where o.status = 'paid'
    on conflict (code) do nothing`.execute(db);
  await sql`
    insert into ledger_accounts (kind, owner_id)
    select distinct k.kind, e.creator_id
    from ledger_entries e cross join (values ('creator_pending'), ('creator_available')) k(kind)
    where e.account = 'creator'`.execute(db);

  // the group each old row belongs to, its journal and the account of each row
  await sql`
    create temporary table carried on commit drop as
    select e.*,
      case
        when e.payment_id is not null then 'payment-' || e.payment_id
        when e.payout_id is not null and e.kind = 'payout' then 'payout-requested-' || e.payout_id
        when e.payout_id is not null then 'payout-failed-' || e.payout_id
        when e.refund_request_id is not null and e.amount_cents <= 0 then 'refund-decided-' || e.refund_request_id
        when e.refund_request_id is not null then 'refund-not-made-' || e.refund_request_id
        else 'loss-' || e.id
      end as journal_key,
      case
        when e.account = 'platform' and e.kind = 'loss' then 'losses'
        when e.account = 'platform' then 'platform_revenue'
        when e.available_at > now() then 'creator_pending'
        else 'creator_available'
      end as account_kind
    from ledger_entries e
    -- a write-off's platform row mirrors its creator row: the creator row's journal carries both sides
    where not (e.kind = 'loss' and e.account = 'platform' and e.payment_id is null and e.refund_request_id is null)`.execute(db);

  await sql`
    insert into journal_entries (kind, key, reason, payment_id, payout_id, refund_request_id, occurred_at, created_at)
    select distinct on (c.journal_key)
      case
        when c.payment_id is not null then case p.kind when 'charge' then 'charge' when 'refund' then 'refund' when 'dispute' then 'dispute_opened' else 'dispute_won' end
        when c.payout_id is not null and c.kind = 'payout' then 'payout_requested'
        when c.payout_id is not null then 'payout_failed'
        when c.refund_request_id is not null and c.amount_cents <= 0 then 'refund_decided'
        when c.refund_request_id is not null then 'refund_not_made'
        else 'loss_written_off'
      end,
      c.journal_key, c.reason, c.payment_id, c.payout_id, c.refund_request_id, c.created_at, c.created_at
    from carried c left join payments p on p.id = c.payment_id
    -- an old row of zero cents moved nothing: no journal
    where c.amount_cents <> 0
    order by c.journal_key, c.created_at`.execute(db);

  await sql`
    insert into journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
    select j.id, a.id, a.currency, j.kind, -c.amount_cents,
      case when a.kind = 'creator_pending' then c.available_at end, j.occurred_at
    from carried c
    join journal_entries j on j.key = c.journal_key
    join ledger_accounts a on a.kind = c.account_kind
      and (a.code is not null or a.owner_id is not distinct from c.creator_id)
    where c.amount_cents <> 0`.execute(db);

  // the balancing side of each carried journal
  await sql`
    insert into journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
    select j.id, a.id, a.currency, j.kind, s.total, null, j.occurred_at
    from journal_entries j
    join lateral (select sum(c.amount_cents) as total from carried c where c.journal_key = j.key) s on s.total <> 0
    left join payments p on p.id = j.payment_id
    join ledger_accounts a on a.code = case
      when j.payment_id is not null then 'provider_cash:' || p.provider
      when j.kind in ('payout_requested', 'payout_failed') then 'payouts_in_transit'
      when j.kind in ('refund_decided', 'refund_not_made') then 'refunds_owed'
      else 'losses'
    end`.execute(db);

  // a payout the provider has paid: out of transit, out of the provider's money
  await sql`
    insert into journal_entries (kind, key, payout_id, occurred_at, created_at)
    select 'payout_paid', 'payout-paid-' || o.id, o.id, coalesce(o.settled_at, o.created_at), coalesce(o.settled_at, o.created_at)
    from payouts o where o.status = 'paid'`.execute(db);
  await sql`
    insert into journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
    select j.id, a.id, a.currency, j.kind, case when a.kind = 'payouts_in_transit' then o.amount_cents else -o.amount_cents end, null, j.occurred_at
    from journal_entries j
    join payouts o on o.id = j.payout_id
    join ledger_accounts a on a.code in ('payouts_in_transit', 'provider_cash:' || o.provider)
    where j.kind = 'payout_paid'`.execute(db);
  await sql`drop table carried`.execute(db);
}

/**
 * Back to the two-party table: the creators' lines and the platform's revenue and losses become its
 * rows again (the side it never kept, and the moves between a creator's own accounts, are dropped).
 */
export async function down(db: MigrationDb): Promise<void> {
  await sql`
    create table ledger_entries (
      id uuid primary key default gen_random_uuid(),
      account text not null constraint ledger_entries_account_check check (account in ('platform', 'creator')),
      creator_id uuid references users(id) on delete set null,
      kind text not null constraint ledger_entries_kind_check check (kind in ('charge', 'reversal', 'payout', 'payout_returned', 'loss')),
      payment_id uuid references payments(id) on delete restrict,
      payout_id uuid references payouts(id) on delete restrict,
      amount_cents bigint not null,
      available_at timestamptz not null,
      created_at timestamptz not null default now(),
      refund_request_id uuid references refund_requests(id) on delete restrict,
      reason text,
      constraint ledger_entries_platform_no_creator check (account = 'creator' or creator_id is null),
      constraint ledger_entries_payout_creator check (payout_id is null or account = 'creator'),
      constraint ledger_entries_source check ((payment_id is null or payout_id is null)
        and (payment_id is not null or payout_id is not null or refund_request_id is not null or kind = 'loss')),
      constraint ledger_entries_loss_reason check ((kind = 'loss') = (reason is not null)),
      constraint ledger_entries_refund_request_kind check (refund_request_id is null or kind in ('reversal', 'loss'))
    )`.execute(db);
  await sql`
    insert into ledger_entries (account, creator_id, kind, payment_id, payout_id, refund_request_id, reason, amount_cents, available_at, created_at)
    select case when a.kind like 'creator%' then 'creator' else 'platform' end, a.owner_id,
      case when a.kind = 'losses' or j.kind = 'loss_written_off' then 'loss' when j.kind = 'charge' then 'charge'
           when j.kind = 'payout_requested' then 'payout' when j.kind = 'payout_failed' then 'payout_returned' else 'reversal' end,
      j.payment_id, j.payout_id, j.refund_request_id,
      max(case when a.kind = 'losses' or j.kind = 'loss_written_off' then coalesce(j.reason, 'carried back') end),
      -sum(l.amount_cents), coalesce(max(l.available_at), j.occurred_at), j.occurred_at
    from journal_lines l join journal_entries j on j.id = l.journal_id join ledger_accounts a on a.id = l.account_id
    where a.kind in ('creator_pending', 'creator_available', 'platform_revenue', 'losses')
      and j.kind not in ('hold_released', 'payout_paid', 'refund_settled')
      -- the old table kept a decided refund's creator share only; the platform's side came with the refund's payment
      and not (a.kind = 'platform_revenue' and j.kind in ('refund_decided', 'refund_not_made'))
    group by 1, 2, 3, j.id
    having sum(l.amount_cents) <> 0`.execute(db);
  await sql`create unique index ledger_entries_payment_idx on ledger_entries (payment_id, account, kind) where payment_id is not null`.execute(db);
  await sql`create unique index ledger_entries_payout_idx on ledger_entries (payout_id, kind) where payout_id is not null`.execute(db);
  await sql`create unique index ledger_entries_refund_request_idx on ledger_entries (refund_request_id, (amount_cents > 0)) where refund_request_id is not null`.execute(db);
  await sql`create index ledger_entries_creator_idx on ledger_entries (creator_id, created_at) include (kind, amount_cents, available_at) where account = 'creator'`.execute(db);
  await sql`create index ledger_entries_creator_available_idx on ledger_entries (creator_id, available_at) include (amount_cents) where account = 'creator'`.execute(db);
  await sql`create index ledger_entries_month_idx on ledger_entries (created_at) include (account, kind, amount_cents)`.execute(db);
  await sql`drop table journal_lines`.execute(db);
  await sql`drop table journal_entries`.execute(db);
  await sql`drop table ledger_accounts`.execute(db);
  await sql`drop function journal_must_balance, journal_needs_lines, ledger_is_append_only`.execute(db);
}
