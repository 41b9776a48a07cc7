/**
 * Typed client of OCS administration (src/contract/api/ocsAdmin.ts): users and balances, service
 * settings, the first-run setup checklist, and the question bank.
 */
import * as api from '@/contract/api/ocsAdmin';
import type { AnswerOf } from '@/contract/endpoint';
import type {
  AdjustBalanceBody,
  BankQuestionListQuery,
  BankQuestionUpdateBody,
  BankStatus,
  OcsAdminUserListQuery,
  OcsSettingsBody,
} from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call, upload } from './call';
import { urlOf } from './url';

export type OcsAdminUserListAnswer = AnswerOf<typeof api.listUsers>;
export type AdjustBalanceAnswer = AnswerOf<typeof api.adjustBalance>;
export type OcsAdminLedgerAnswer = AnswerOf<typeof api.userLedger>;
export type OcsSettingsAnswer = AnswerOf<typeof api.getSettings>;
export type BankQuestionListAnswer = AnswerOf<typeof api.listQuestions>;
export type BankQuestionAnswer = AnswerOf<typeof api.getQuestion>;
export type BankStatsAnswer = AnswerOf<typeof api.bankStats>;
export type BankImportPreviewAnswer = AnswerOf<typeof api.uploadImport>;
export type BankImportJobAnswer = AnswerOf<typeof api.importJob>;
export type BankDeleteAnswer = AnswerOf<typeof api.deleteQuestion>;
export type OcsSetupAnswer = AnswerOf<typeof api.setupStatus>;
export type SampleBankImportAnswer = AnswerOf<typeof api.importSampleBank>;

// ---------- users and balances ----------

/** Balance, queries today/total, AI spend, last query. */
export const fetchOcsUsers = (params: OcsAdminUserListQuery, options?: RequestOptions) =>
  call(api.listUsers, { query: params }, options);

/** + adds, − removes; the reason goes on the bill and the audit log. */
export const adjustBalance = (userId: number, body: AdjustBalanceBody, options?: RequestOptions) =>
  call(api.adjustBalance, { params: { id: userId }, body }, options);

/** Newest first. */
export const fetchUserLedger = (
  userId: number,
  params: { current?: number; pageSize?: number },
  options?: RequestOptions,
) => call(api.userLedger, { params: { id: userId }, query: params }, options);

// ---------- service settings ----------

export const fetchOcsSettings = (options?: RequestOptions) => call(api.getSettings, {}, options);

/** Every change is audited. */
export const saveOcsSettings = (body: OcsSettingsBody, options?: RequestOptions) =>
  call(api.saveSettings, { body }, options);

// ---------- first-run setup ----------

/** Bank imported? AI model configured? Price set? */
export const fetchOcsSetup = (options?: RequestOptions) => call(api.setupStatus, {}, options);

// ---------- question bank ----------

export const fetchBankStats = (options?: RequestOptions) => call(api.bankStats, {}, options);

export const fetchBankQuestions = (params: BankQuestionListQuery, options?: RequestOptions) =>
  call(api.listQuestions, { query: params }, options);

/** Validated like an import; 409 when it duplicates another question. */
export const updateBankQuestion = (id: number, body: BankQuestionUpdateBody, options?: RequestOptions) =>
  call(api.updateQuestion, { params: { id }, body }, options);

/** wrong takes the question out of matching; verified marks an AI answer as checked. */
export const setBankQuestionStatus = (id: number, status: BankStatus, options?: RequestOptions) =>
  call(api.setQuestionStatus, { params: { id }, body: { status } }, options);

export const deleteBankQuestion = (id: number, options?: RequestOptions) =>
  call(api.deleteQuestion, { params: { id } }, options);

/** A plain download link: the browser sends the session cookie and saves the file, however large. */
export const bankExportUrl = (format: 'json' | 'csv'): string => urlOf(api.bankExport, { query: { format } });

/** The sample bank shipped with the portal, in one step; questions already in the bank are skipped. */
export const importSampleBank = (options?: RequestOptions) => call(api.importSampleBank, {}, options);

/** Multipart upload; answers the preview and validation report. */
export const uploadBankFile = (file: File, onProgress?: (percent: number) => void, options?: RequestOptions) =>
  upload(api.uploadImport, file, onProgress, options);

/** Starts the background write; poll fetchBankImportJob for progress. */
export const commitBankImport = (id: string, options?: RequestOptions) =>
  call(api.commitImport, { params: { id } }, options);

export const fetchBankImportJob = (id: string, options?: RequestOptions) =>
  call(api.importJob, { params: { id } }, options);
