/**
 * Every endpoint descriptor, by module. The UI imports a module's file directly (only what a page
 * needs lands in its bundle); tests walk this index to prove the server, the mocks and the contract agree.
 */
import type { Endpoint } from '../endpoint';
import * as health from './health';
import * as identity from './identity';
import * as njit from './njit';
import * as njitPolicy from './njitPolicy';
import * as notifications from './notifications';
import * as ocs from './ocs';
import * as ocsAdmin from './ocsAdmin';
import * as ocsAi from './ocsAi';
import * as ocsFree from './ocsFree';
import * as ocsReview from './ocsReview';
import * as ocsUpstream from './ocsUpstream';
import * as ums from './ums';
import * as user from './user';

export const apiModules = {
  health,
  user,
  identity,
  ums,
  njit,
  njitPolicy,
  ocs,
  ocsAdmin,
  ocsAi,
  ocsFree,
  ocsReview,
  ocsUpstream,
  notifications,
} as const;

/** `[module.name, descriptor]` for every endpoint. */
export function allEndpoints(): [string, Endpoint][] {
  return Object.entries(apiModules).flatMap(([mod, exports]) =>
    Object.entries(exports as Record<string, Endpoint>).map(([name, e]): [string, Endpoint] => [`${mod}.${name}`, e]),
  );
}
