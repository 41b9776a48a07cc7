/**
 * Dev mock of GET /api/ocs/script-info (`npm run dev`), typed by src/contract/ocsConfig.ts. The version
 * and changelog are the real ones, so the download page shows what the server would.
 */
import { USERSCRIPT_CHANGELOG, USERSCRIPT_VERSION } from '../src/contract';
import * as ocsApi from '../src/contract/api/ocs';
import { defineMocks, on } from './_lib/endpoint';

export default defineMocks(
  on(ocsApi.scriptInfo, (req, res) => {
    const baseUrl = `http://${req.headers?.host ?? 'localhost:8000'}`;
    res.json({
      success: true,
      data: {
        baseUrl,
        version: USERSCRIPT_VERSION,
        changelog: USERSCRIPT_CHANGELOG,
        userscriptUrl: `${baseUrl}${ocsApi.userscript.path}`,
        subscriptionBase: `${baseUrl}${ocsApi.config.path}`,
      },
    });
  }),
);
