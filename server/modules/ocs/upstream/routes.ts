/**
 * HTTP layer of the upstream banks (src/contract/api/ocsUpstream.ts): administrators list, create,
 * change, delete and test them. Each change clears the answering path's cached list at once.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/ocsUpstream';
import type { AppDeps } from '../../../deps';
import { badRequest } from '../../../errors';
import { success, SUCCESS } from '../../../http/reply';
import { route } from '../../../http/route';
import { actorOf } from '../../../plugins/auth';
import { parseQuestion } from '../query/question';
import type { UpstreamAsker } from './asker';
import {
  createUpstream,
  deleteUpstream,
  getUpstreamRow,
  listUpstreamRows,
  todayIn,
  toUpstream,
  updateUpstream,
} from './store';

export default async function ocsUpstreamRoutes(
  app: FastifyInstance,
  deps: AppDeps & { upstreams: UpstreamAsker },
): Promise<void> {
  const { db, secrets, config, upstreams } = deps;
  const allowlist = config.ADMIN_URL_ALLOWLIST;
  const view = async (row: Awaited<ReturnType<typeof getUpstreamRow>>) =>
    toUpstream(row, upstreams.breakers.get(Number(row.id)), await todayIn(db, config.PORTAL_TZ));

  route(app, api.listUpstreams, async () => {
    const [rows, today] = await Promise.all([listUpstreamRows(db), todayIn(db, config.PORTAL_TZ)]);
    return success(rows.map((r) => toUpstream(r, upstreams.breakers.get(Number(r.id)), today)));
  });
  route(app, api.createUpstream, async (request) => {
    const budget = (await app.ocs.settings.get()).latencyBudgetSeconds;
    const id = await createUpstream(db, secrets, actorOf(request), request.body, budget, allowlist);
    upstreams.invalidate();
    return success(await view(await getUpstreamRow(db, id)));
  });
  route(app, api.updateUpstream, async (request) => {
    const budget = (await app.ocs.settings.get()).latencyBudgetSeconds;
    const id = await updateUpstream(db, secrets, actorOf(request), request.params.id, request.body, budget, allowlist);
    upstreams.invalidate();
    return success(await view(await getUpstreamRow(db, id)));
  });
  route(app, api.deleteUpstream, async (request) => {
    await deleteUpstream(db, actorOf(request), request.params.id);
    upstreams.invalidate();
    upstreams.breakers.delete(request.params.id);
    return SUCCESS;
  });
  route(app, api.testUpstream, async (request) => {
    const row = await getUpstreamRow(db, request.params.id);
    const q = parseQuestion(request.body);
    if (typeof q === 'string') throw badRequest(q, { title: [q] });
    return success(await upstreams.test(row, q));
  });
}
