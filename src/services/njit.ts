/** Typed client of the NJIT student lookup (src/contract/api/njit.ts). */
import * as api from '@/contract/api/njit';
import type { AnswerOf } from '@/contract/endpoint';
import type { NjitAuditQuery, RevealBody, StudentSearchQuery } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import type { z } from 'zod';
import { call, upload } from './call';
import { urlOf } from './url';

export type StudentSearchAnswer = AnswerOf<typeof api.searchStudents>;
export type StudentAnswer = AnswerOf<typeof api.getStudent>;
export type RevealAnswer = AnswerOf<typeof api.revealField>;
export type NjitOptionsAnswer = AnswerOf<typeof api.options>;
export type NjitOverviewAnswer = AnswerOf<typeof api.overview>;
export type ImportPreviewAnswer = AnswerOf<typeof api.uploadImport>;
export type ImportCommitAnswer = AnswerOf<typeof api.commitImport>;
export type ImportListAnswer = AnswerOf<typeof api.listImports>;
export type NjitAuditListAnswer = AnswerOf<typeof api.listAudit>;
export type StudentSearchParams = Partial<z.input<typeof StudentSearchQuery>>;
export type NjitAuditParams = Partial<z.input<typeof NjitAuditQuery>>;

/** At least one criterion; at most 50 per page; rate-limited per user. */
export const searchStudents = (params: StudentSearchParams, options?: RequestOptions) =>
  call(api.searchStudents, { query: params }, options);

/** The full record, phone and ID masked; audited. */
export const fetchStudent = (id: number, options?: RequestOptions) => call(api.getStudent, { params: { id } }, options);

/** Administrators only, with a reason; audited. */
export const revealStudentField = (id: number, body: RevealBody, options?: RequestOptions) =>
  call(api.revealField, { params: { id }, body }, options);

/** Colleges, majors and grades for the search form. */
export const fetchNjitOptions = (options?: RequestOptions) => call(api.options, {}, options);

export const fetchNjitOverview = (options?: RequestOptions) => call(api.overview, {}, options);

/** Multipart upload; answers the preview and validation report. */
export const uploadRoster = (file: File, onProgress?: (percent: number) => void, options?: RequestOptions) =>
  upload(api.uploadImport, file, onProgress, options);

/** Applies a previewed import in one transaction. */
export const commitRosterImport = (importId: string, options?: RequestOptions) =>
  call(api.commitImport, { params: { id: importId } }, { timeout: 5 * 60 * 1000, ...options });

/** Import history (administrators). */
export const fetchImports = (params: { current?: number; pageSize?: number }, options?: RequestOptions) =>
  call(api.listImports, { query: params }, options);

/** The njit audit log (administrators). */
export const fetchNjitAudit = (params: NjitAuditParams, options?: RequestOptions) =>
  call(api.listAudit, { query: params }, options);

/** URL of the CSV export of the audit log with the same filters (a plain download link). */
export const njitAuditExportUrl = (params: Omit<NjitAuditParams, 'current' | 'pageSize'>): string =>
  urlOf(api.exportAudit, { query: params });

/** The roster template, CSV or Excel: a link the browser downloads itself. */
export const rosterTemplateUrl = (format: 'csv' | 'xlsx') => urlOf(api.importTemplate, { query: { format } });
