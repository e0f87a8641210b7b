import { sql, type CreateTableBuilder, type Expression, type Kysely } from 'kysely';

// Shared pieces of the migrations. The migrator only loads files directly inside migrations/,
// so this folder is never mistaken for a migration.

/** `column in ('a', 'b')` for a CHECK; the lists are the ones in common/enums.ts. */
export function isOneOf(column: string, values: readonly string[]): Expression<boolean> {
  return sql<boolean>`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

export const now = sql`now()`;

export function withId<C extends string>(table: CreateTableBuilder<string, C>) {
  return table.addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`));
}

export function withCreatedAt<C extends string>(table: CreateTableBuilder<string, C>) {
  return table.addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now));
}

export function withTimestamps<C extends string>(table: CreateTableBuilder<string, C>) {
  return withCreatedAt(table).addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now));
}

/** A uuid column pointing at users.id that disappears with its user. */
export function userRef<C extends string, N extends string>(table: CreateTableBuilder<string, C>, name: N) {
  return table.addColumn(name, 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'));
}

/**
 * What each migration receives. Migrations are frozen in time, so they must not be typed by the
 * current server/db/schema.ts; Kysely's guide uses Kysely<any> for that reason.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MigrationDb = Kysely<any>;
