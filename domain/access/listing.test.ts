import { describe, expect, it } from 'vitest';
import { PROFILE_VISIBILITIES, type ProfileVisibility } from '../../common/enums';
import { makeUser } from '../../tests/helpers/factories';
import { useTestDb } from '../../tests/helpers/test-db';
import { listedCreatorWhere, mayBeListed } from './listing';

const t = useTestDb();

describe('who may be listed publicly', () => {
  it('lists creators whose profile everyone may see, and the SQL agrees with the rule on every combination', async () => {
    const made: { id: string; isCreator: boolean; visibility: ProfileVisibility | null }[] = [];
    for (const isCreator of [true, false]) {
      for (const visibility of [...PROFILE_VISIBILITIES, null]) {
        const user = await makeUser(t.db, { isCreator, visibility: visibility ?? 'public' });
        // no privacy_settings row at all: public
        if (visibility === null) await t.db.deleteFrom('privacy_settings').where('user_id', '=', user.id).execute();
        made.push({ id: user.id, isCreator, visibility });
      }
    }
    const inJs = made.filter(mayBeListed).map((p) => p.id);
    // the locked cases as well as the open ones
    expect(made.filter((p) => !mayBeListed(p)).map((p) => [p.isCreator, p.visibility])).toEqual(
      expect.arrayContaining([
        [true, 'private'],
        [true, 'hidden'],
        [true, 'friends'],
        [false, 'public'],
        [false, null],
      ]),
    );
    expect(made.filter((p) => mayBeListed(p)).map((p) => p.visibility).sort()).toEqual(['public', null].sort());

    const inSql = await t.db
      .selectFrom('profiles as pr')
      .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
      .select('pr.id')
      .where(listedCreatorWhere())
      .execute();
    expect(new Set(inSql.map((r) => r.id))).toEqual(new Set(inJs));
  });
});
