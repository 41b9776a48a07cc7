/**
 * Shared OCS vocabulary. The question types are the ones the OCS userscript sends in its `type` field;
 * the one definition lives with the table that stores them.
 */
export type { OcsQuestionType as OcsType } from '../../db/schema';
