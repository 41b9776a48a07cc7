/**
 * The ordered list of migrations. Static imports so the same list works under tsx, jest and a bundle.
 * Append only: a name that sorts before one already applied is refused by the migrator.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_accounts';
import * as m0002 from './0002_user_module';
import * as m0004 from './0004_ums';
import * as m0005 from './0005_njit';
import * as m0006 from './0006_ocs';
import * as m0007 from './0007_ums_attempt_detail';
import * as m0008 from './0008_ocs_charge_many';
import * as m0009 from './0009_njit_filter_index';
import * as m0010 from './0010_instances_and_login';

export const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_user_module': m0002,
  '0004_ums': m0004,
  '0005_njit': m0005,
  '0006_ocs': m0006,
  '0007_ums_attempt_detail': m0007,
  '0008_ocs_charge_many': m0008,
  '0009_njit_filter_index': m0009,
  '0010_instances_and_login': m0010,
};
