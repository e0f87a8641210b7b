import { createMigratedDatabase } from '../tests/helpers/databases';
const db = await createMigratedDatabase('postgres://postgres@127.0.0.1:5432', 'ledger2_exp');
console.log(db.url);
await db.db.destroy();
process.exit(0);
