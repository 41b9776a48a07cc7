/**
 * HTTP layer of OCS administration of users and the service (src/contract/api/ocsAdmin.ts): users and
 * their balances and ledgers, the service settings and the first-run setup checklist. Every route is
 * admin-only. The question-bank routes of the same contract are in bank/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/ocsAdmin';
import type { AppDeps } from '../../../deps';
import { paged, success } from '../../../http/reply';
import { route } from '../../../http/route';
import { actorOf } from '../../../plugins/auth';
import { listLedger } from '../wallet/ledger';
import { getOcsSettings, updateOcsSettings } from './settings';
import { setupStatus } from './setup';
import { adjustBalance, listOcsUsers } from './users';

export default async function ocsAdminRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;

  // ---------- users and balances ----------
  route(app, api.listUsers, async (request) =>
    paged(await listOcsUsers(db, request.query, config.PORTAL_TZ), request.query),
  );
  route(app, api.adjustBalance, async (request) =>
    success(await adjustBalance(db, actorOf(request), request.params.id, request.body.amount, request.body.reason)),
  );
  route(app, api.userLedger, async (request) =>
    paged(await listLedger(db, request.params.id, request.query, config.PORTAL_TZ), request.query),
  );

  // ---------- service settings ----------
  route(app, api.getSettings, async () => success(await getOcsSettings(db)));
  route(app, api.saveSettings, async (request) => {
    await updateOcsSettings(db, actorOf(request), request.body);
    app.ocs.settings.invalidate();
    return success(await getOcsSettings(db));
  });

  // ---------- first-run setup ----------
  route(app, api.setupStatus, async () => success(await setupStatus(db)));
}
