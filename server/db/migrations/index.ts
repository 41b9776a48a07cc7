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
import * as m0011 from './0011_identity_two_factor';
import * as m0011b from './0011b_identity_email';
import * as m0011c from './0011c_identity_sso';
import * as m0012 from './0012_ocs_provenance';
import * as m0012b from './0012b_ocs_reports';
import * as m0012c from './0012c_ocs_misses';
import * as m0012d from './0012d_ocs_upstreams';
import * as m0013 from './0013_ums_channel_kinds';
import * as m0013b from './0013b_ums_routing';
import * as m0013c from './0013c_ums_callbacks';
import * as m0013d from './0013d_ums_templates';
import * as m0013e from './0013e_ums_inbox';
import * as m0013f from './0013f_ums_digest';
import * as m0014 from './0014_rate_limits_unlogged';
import * as m0015 from './0015_ocs_charge_set';
import * as m0016 from './0016_ocs_charge_recent_probe';
import * as m0017 from './0017_ocs_question_hits';
import * as m0018 from './0018_ocs_free_repeat_bound';
import * as m0019 from './0019_njit_roster_token';
import * as m0020 from './0020_njit_audit_statistics';
import * as m0021 from './0021_ocs_bank_generation';
import * as m0022 from './0022_ocs_queries_created_index';
import * as m0023 from './0023_ocs_user_check_per_statement';
import * as m0024 from './0024_ocs_user_check_advisory';
import * as m0025 from './0025_ocs_charge_checks_users';
import * as m0026 from './0026_ocs_answer_pieces';
import * as m0027a from './0027_a_ums_pace_keys';
import * as m0027b from './0027_b_ums_claims';
import * as m0027c from './0027_c_ums_attempt_done';
import * as m0027d from './0027_d_ums_scheduled';
import * as m0027e from './0027_e_ums_email_consent';
import * as m0027f from './0027_f_ums_consent_kept';
import * as m0028 from './0028_identity_subject_case';
import * as m0028b from './0028_login_links';
import * as m0030 from './0030_ocs_charge_in_full';
import * as m0031 from './0031_mem_njit_staging_chunks';
import * as m0032 from './0032_notifications';
import * as m0033 from './0033_user_preferences';
import * as m0034 from './0034_ocs_questions_title_prefix';
import * as m0036 from './0036_njit_audit_subject';
import * as m0037 from './0037_njit_reveal_requests';
import * as m0038 from './0038_njit_student_left_at';
import * as m0039 from './0039_notification_preferences';
import * as m0040 from './0040_ums_channel_failures_in_row';
import * as m0041 from './0041_njit_student_edits';
import * as m0042 from './0042_njit_field_policy';

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
  '0011_identity_two_factor': m0011,
  '0011b_identity_email': m0011b,
  '0011c_identity_sso': m0011c,
  '0012_ocs_provenance': m0012,
  '0012b_ocs_reports': m0012b,
  '0012c_ocs_misses': m0012c,
  '0012d_ocs_upstreams': m0012d,
  '0013_ums_channel_kinds': m0013,
  '0013b_ums_routing': m0013b,
  '0013c_ums_callbacks': m0013c,
  '0013d_ums_templates': m0013d,
  '0013e_ums_inbox': m0013e,
  '0013f_ums_digest': m0013f,
  '0014_rate_limits_unlogged': m0014,
  '0015_ocs_charge_set': m0015,
  '0016_ocs_charge_recent_probe': m0016,
  '0017_ocs_question_hits': m0017,
  '0018_ocs_free_repeat_bound': m0018,
  '0019_njit_roster_token': m0019,
  '0020_njit_audit_statistics': m0020,
  '0021_ocs_bank_generation': m0021,
  '0022_ocs_queries_created_index': m0022,
  '0023_ocs_user_check_per_statement': m0023,
  '0024_ocs_user_check_advisory': m0024,
  '0025_ocs_charge_checks_users': m0025,
  '0026_ocs_answer_pieces': m0026,
  '0027_a_ums_pace_keys': m0027a,
  '0027_b_ums_claims': m0027b,
  '0027_c_ums_attempt_done': m0027c,
  '0027_d_ums_scheduled': m0027d,
  '0027_e_ums_email_consent': m0027e,
  '0027_f_ums_consent_kept': m0027f,
  '0028_identity_subject_case': m0028,
  '0028_login_links': m0028b,
  '0030_ocs_charge_in_full': m0030,
  '0031_mem_njit_staging_chunks': m0031,
  '0032_notifications': m0032,
  '0033_user_preferences': m0033,
  '0034_ocs_questions_title_prefix': m0034,
  '0036_njit_audit_subject': m0036,
  '0037_njit_reveal_requests': m0037,
  '0038_njit_student_left_at': m0038,
  '0039_notification_preferences': m0039,
  '0040_ums_channel_failures_in_row': m0040,
  '0041_njit_student_edits': m0041,
  '0042_njit_field_policy': m0042,
};
