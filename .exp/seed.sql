set session_replication_role = replica;
insert into users (id, email, password_hash, email_verified_at) values ('11111111-1111-1111-1111-111111111111', 'earn@x.test', 'x', now());
insert into ledger_accounts (id, kind, owner_id) values ('22222222-2222-2222-2222-222222222222', 'creator_pending', '11111111-1111-1111-1111-111111111111'), ('33333333-3333-3333-3333-333333333333', 'creator_available', '11111111-1111-1111-1111-111111111111');
insert into ledger_accounts (id, code, kind, provider) values ('44444444-4444-4444-4444-444444444444', 'provider_cash:builtin', 'provider_cash', 'builtin');
create temp table c as select i, gen_random_uuid() as jid, (10 + i % 90) * 100 as t, now() - (i::bigint * 99000)::bigint * interval '1 millisecond' as at from generate_series(1, 317461) i;
insert into journal_entries (id, kind, key, occurred_at) select jid, 'charge', 'c-' || i, at from c;
insert into journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
select jid, '44444444-4444-4444-4444-444444444444', 'ZAR', 'charge', t, null::timestamptz, at from c
union all select jid, (select id from ledger_accounts where code = 'platform_revenue'), 'ZAR', 'charge', -(t/5), null::timestamptz, at from c
union all select jid, '22222222-2222-2222-2222-222222222222', 'ZAR', 'charge', -(t - t/5), at + interval '7 days', at from c;
create temp table r as select i, gen_random_uuid() as jid, t, at + interval '1 day' as at, at + interval '7 days' as av from c where i % 20 = 0;
insert into journal_entries (id, kind, key, occurred_at) select jid, 'refund', 'r-' || i, at from r;
insert into journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
select jid, '44444444-4444-4444-4444-444444444444', 'ZAR', 'refund', -t, null::timestamptz, at from r
union all select jid, (select id from ledger_accounts where code = 'platform_revenue'), 'ZAR', 'refund', t/5, null::timestamptz, at from r
union all select jid, '22222222-2222-2222-2222-222222222222', 'ZAR', 'refund', t - t/5, av, at from r;
analyze;
select count(*) from journal_lines;
