/**
 * Dev mock of GET /api/ocs/script-info (`npm run dev`), typed by src/contract/ocsConfig.ts. The version
 * and changelog are the real ones, so the download page shows what the server would.
 */
import type { OcsScriptInfoResponse } from '../src/contract';
import { USERSCRIPT_CHANGELOG, USERSCRIPT_VERSION } from '../server/modules/ocs/userscript';
import type { Req, Res } from './_lib/http';

export default {
  'GET /api/ocs/script-info': (req: Req, res: Res) => {
    const baseUrl = `http://${req.headers?.host ?? 'localhost:8000'}`;
    const body: OcsScriptInfoResponse = {
      success: true,
      data: {
        baseUrl,
        version: USERSCRIPT_VERSION,
        changelog: USERSCRIPT_CHANGELOG,
        userscriptUrl: `${baseUrl}/api/ocs/userscript.user.js`,
        subscriptionBase: `${baseUrl}/api/ocs/config`,
      },
    };
    res.json(body);
  },
};
