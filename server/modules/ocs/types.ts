/**
 * Shared OCS vocabulary. The question types are the ones the OCS userscript sends in its `type` field.
 */
export type OcsType = 'single' | 'multiple' | 'judgement' | 'completion' | 'any';
