/**
 * The question types as the AI layer names them (OcsType): the ones the OCS userscript sends in its
 * `type` field. The one definition lives with the table that stores them.
 */
export type { OcsQuestionType as OcsType } from '../../../db/schema';
