/**
 * HTTP layer of OCS AI (src/contract/api/ocsAi.ts): the user's preferences, the models to pick from,
 * prompt defaults and preview; and for administrators providers and models (CRUD) and the model test.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/ocsAi';
import type { AppDeps } from '../../../deps';
import { badRequest } from '../../../errors';
import { success, SUCCESS } from '../../../http/reply';
import { route } from '../../../http/route';
import { actorOf } from '../../../plugins/auth';
import { getPreferences, setPreferences, type PreferencesCache } from './preferences';
import {
  DEFAULT_PROMPT_TEMPLATES,
  OCS_AI_SAMPLES,
  renderPrompt,
  TEMPLATE_MAX_LENGTH,
  validateTemplate,
} from '@contract';
import * as admin from './providers';

const VARIABLES = [
  { name: '${title}', label: '题目（必填）' },
  { name: '${type}', label: '题型，如“单选题”' },
  { name: '${options}', label: '选项，每行一个，带 A. B. 标号' },
];

export default async function ocsAiRoutes(
  app: FastifyInstance,
  deps: AppDeps & { preferences: PreferencesCache },
): Promise<void> {
  const { db, config, secrets, preferences } = deps;
  const allowlist = config.ADMIN_URL_ALLOWLIST;

  // ---------- users ----------
  route(app, api.getPreferences, async (request) =>
    success(await getPreferences(db, request.user!.id, config.PORTAL_TZ)),
  );
  route(app, api.savePreferences, async (request) => {
    const userId = request.user!.id;
    await setPreferences(db, userId, request.body);
    preferences.invalidate(userId);
    return success(await getPreferences(db, userId, config.PORTAL_TZ));
  });
  route(app, api.modelOptions, async () => {
    const models = (await admin.listModels(db)).filter((m) => m.enabled);
    return success(models.map(({ id, displayName, model, price }) => ({ id, displayName, model, price })));
  });
  route(app, api.promptDefaults, async () =>
    success({
      templates: DEFAULT_PROMPT_TEMPLATES,
      variables: VARIABLES,
      maxLength: TEMPLATE_MAX_LENGTH,
      samples: OCS_AI_SAMPLES,
    }),
  );
  route(app, api.promptPreview, async (request) => {
    const problem = validateTemplate(request.body.template);
    if (problem) throw badRequest(problem, { template: [problem] });
    const question = OCS_AI_SAMPLES[request.body.type];
    return success({ prompt: renderPrompt(request.body.template, question), question });
  });

  // ---------- administrators: providers ----------
  route(app, api.listProviders, async () => success(await admin.listProviders(db)));
  route(app, api.createProvider, async (request) =>
    success(await admin.createProvider(db, secrets, actorOf(request), request.body, allowlist)),
  );
  route(app, api.updateProvider, async (request) =>
    success(await admin.updateProvider(db, secrets, actorOf(request), request.params.id, request.body, allowlist)),
  );
  route(app, api.deleteProvider, async (request) => {
    await admin.deleteProvider(db, actorOf(request), request.params.id);
    return SUCCESS;
  });

  // ---------- administrators: models ----------
  route(app, api.listModels, async () => success(await admin.listModels(db)));
  route(app, api.createModel, async (request) => success(await admin.createModel(db, actorOf(request), request.body)));
  route(app, api.updateModel, async (request) =>
    success(await admin.updateModel(db, actorOf(request), request.params.id, request.body)),
  );
  route(app, api.deleteModel, async (request) => {
    await admin.deleteModel(db, actorOf(request), request.params.id);
    return SUCCESS;
  });
  route(
    app,
    api.testModel,
    async (request) =>
      success(await admin.testModel(db, secrets, request.params.id, request.body?.type ?? 'single', allowlist)),
    { rateLimit: { max: 20, timeWindow: '1 minute' } },
  );
}
