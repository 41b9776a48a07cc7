/**
 * The portal server as `npm start` runs it, plus one probe route that exists only here: a raw lookup
 * of a question by title hash through the same database handle, the database ceiling the OCS query
 * path is compared with. Outside /api, so no auth, and never part of the product.
 */
import { run } from '../../server/main';

run({
  beforeListen: async (app, db) => {
    app.get('/bench/raw-lookup', async (request) => {
      const h = String((request.query as { h?: string }).h ?? '');
      const row = await db
        .selectFrom('ocs_questions')
        .select(['id', 'answer'])
        .where('title_hash', '=', h)
        .limit(1)
        .executeTakeFirst();
      return { found: !!row };
    });
  },
});
