import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

interface Dropped {
  /** constraints to add back: primary keys and unique ones first, foreign keys last */
  keys: { table: string; name: string; def: string }[];
  foreignKeys: { table: string; name: string; def: string }[];
  indexes: string[];
}

/**
 * Runs `load` with the indexes, primary/unique keys and foreign keys of `tables` (and the foreign
 * keys of other tables that point at them) dropped, then puts every one back as the migrations
 * made it (pg_get_constraintdef / pg_get_indexdef, read before the drop): a btree built once over
 * sorted rows and a foreign key checked in one join are far quicker than millions of random
 * inserts into each index and a lookup per row. Putting them back checks every row, so a load that
 * broke a key or a reference fails here instead of leaving a database the app could not have made.
 * Check constraints and triggers stay on throughout.
 */
export async function withKeysDropped(db: DB, tables: string[], load: () => Promise<void>, log: (line: string) => void = () => {}): Promise<void> {
  const dropped = await droppable(db, tables);
  for (const fk of dropped.foreignKeys) await sql`alter table ${sql.table(fk.table)} drop constraint ${sql.id(fk.name)}`.execute(db);
  for (const key of dropped.keys) await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.name)}`.execute(db);
  const names = (await sql<{ name: string }>`
    select indexrelid::regclass::text as name from pg_index i
    where indrelid = any(${tables}::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`.execute(db)).rows;
  for (const { name } of names) await sql`drop index ${sql.raw(name)}`.execute(db);
  await load();
  const t0 = performance.now();
  // a build sorts its rows in memory when they fit (the session's own setting, not the server's)
  await sql`set maintenance_work_mem = '1GB'`.execute(db);
  for (const key of dropped.keys) await sql`alter table ${sql.table(key.table)} add constraint ${sql.id(key.name)} ${sql.raw(key.def)}`.execute(db);
  for (const def of dropped.indexes) await sql.raw(def).execute(db);
  for (const fk of dropped.foreignKeys) await sql`alter table ${sql.table(fk.table)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.def)}`.execute(db);
  log(`    ${dropped.keys.length} keys, ${dropped.indexes.length} indexes and ${dropped.foreignKeys.length} foreign keys back: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function droppable(db: DB, tables: string[]): Promise<Dropped> {
  const constraints = (await sql<{ table: string; name: string; def: string; type: string }>`
    select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as def, contype as type
    from pg_constraint
    where (conrelid = any(${tables}::regclass[]) and contype in ('p', 'u', 'f'))
       or (confrelid = any(${tables}::regclass[]) and contype = 'f')
    order by conrelid::regclass::text, conname`.execute(db)).rows;
  const indexes = (await sql<{ def: string }>`
    select pg_get_indexdef(indexrelid) as def from pg_index i
    where indrelid = any(${tables}::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
    order by indexrelid::regclass::text`.execute(db)).rows.map((r) => r.def);
  // a foreign key of a table outside `tables` that points at one of them is dropped too (its key
  // goes), and checked again when it comes back
  return {
    keys: constraints.filter((c) => c.type !== 'f' && tables.includes(c.table)),
    foreignKeys: constraints.filter((c) => c.type === 'f'),
    indexes,
  };
}
