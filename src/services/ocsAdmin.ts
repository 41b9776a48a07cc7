/**
 * Typed client of OCS administration (src/contract/ocsAdmin.ts, and the bank importer's shapes in
 * src/contract/ocs.ts): users and balances, service settings, and the question bank.
 */
// Type-only imports: the schemas stay out of the bundle.
import type {
  AdjustBalanceBody,
  AdjustBalanceResponse,
  BankImportJobResponse,
  BankImportPreviewResponse,
  BankQuestionDeleteResponse,
  BankQuestionListQuery,
  BankQuestionListResponse,
  BankQuestionResponse,
  BankQuestionUpdateBody,
  BankStatsResponse,
  BankStatus,
  OcsAdminLedgerResponse,
  OcsAdminUserListQuery,
  OcsAdminUserListResponse,
  OcsSettingsBody,
  OcsSettingsResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type OcsAdminUserListAnswer = z.infer<typeof OcsAdminUserListResponse>;
export type AdjustBalanceAnswer = z.infer<typeof AdjustBalanceResponse>;
export type OcsAdminLedgerAnswer = z.infer<typeof OcsAdminLedgerResponse>;
export type OcsSettingsAnswer = z.infer<typeof OcsSettingsResponse>;
export type BankQuestionListAnswer = z.infer<typeof BankQuestionListResponse>;
export type BankQuestionAnswer = z.infer<typeof BankQuestionResponse>;
export type BankStatsAnswer = z.infer<typeof BankStatsResponse>;
export type BankImportPreviewAnswer = z.infer<typeof BankImportPreviewResponse>;
export type BankImportJobAnswer = z.infer<typeof BankImportJobResponse>;
export type BankDeleteAnswer = z.infer<typeof BankQuestionDeleteResponse>;

const BASE = '/api/ocs/admin';

/** GET /api/ocs/admin/users — balance, queries today/total, AI spend, last query. */
export function fetchOcsUsers(params: OcsAdminUserListQuery, options?: RequestOptions) {
  return request<OcsAdminUserListAnswer>(`${BASE}/users`, { method: 'GET', params, ...options });
}

/** POST /api/ocs/admin/users/:id/adjust — + adds, − removes; the reason goes on the bill and the audit log. */
export function adjustBalance(userId: number, body: AdjustBalanceBody, options?: RequestOptions) {
  return request<AdjustBalanceAnswer>(`${BASE}/users/${userId}/adjust`, { method: 'POST', data: body, ...options });
}

/** GET /api/ocs/admin/users/:id/ledger — newest first. */
export function fetchUserLedger(
  userId: number,
  params: { current?: number; pageSize?: number },
  options?: RequestOptions,
) {
  return request<OcsAdminLedgerAnswer>(`${BASE}/users/${userId}/ledger`, { method: 'GET', params, ...options });
}

export function fetchOcsSettings(options?: RequestOptions) {
  return request<OcsSettingsAnswer>(`${BASE}/settings`, { method: 'GET', ...options });
}

/** PUT /api/ocs/admin/settings — every change is audited. */
export function saveOcsSettings(body: OcsSettingsBody, options?: RequestOptions) {
  return request<OcsSettingsAnswer>(`${BASE}/settings`, { method: 'PUT', data: body, ...options });
}

export function fetchBankStats(options?: RequestOptions) {
  return request<BankStatsAnswer>(`${BASE}/bank/stats`, { method: 'GET', ...options });
}

export function fetchBankQuestions(params: BankQuestionListQuery, options?: RequestOptions) {
  return request<BankQuestionListAnswer>(`${BASE}/bank/questions`, { method: 'GET', params, ...options });
}

/** PUT /api/ocs/admin/bank/questions/:id — validated like an import; 409 when it duplicates another question. */
export function updateBankQuestion(id: number, body: BankQuestionUpdateBody, options?: RequestOptions) {
  return request<BankQuestionAnswer>(`${BASE}/bank/questions/${id}`, { method: 'PUT', data: body, ...options });
}

/** wrong takes the question out of matching; verified marks an AI answer as checked. */
export function setBankQuestionStatus(id: number, status: BankStatus, options?: RequestOptions) {
  return request<BankQuestionAnswer>(`${BASE}/bank/questions/${id}/status`, {
    method: 'POST',
    data: { status },
    ...options,
  });
}

export function deleteBankQuestion(id: number, options?: RequestOptions) {
  return request<BankDeleteAnswer>(`${BASE}/bank/questions/${id}`, { method: 'DELETE', ...options });
}

/** A plain download link: the browser sends the session cookie and saves the file, however large. */
export function bankExportUrl(format: 'json' | 'csv'): string {
  return `${BASE}/bank/export?format=${format}`;
}

/** POST /api/ocs/admin/bank/imports — multipart upload; answers the preview and validation report. */
export function uploadBankFile(file: File, onProgress?: (percent: number) => void, options?: RequestOptions) {
  const form = new FormData();
  form.append('file', file);
  return request<BankImportPreviewAnswer>(`${BASE}/bank/imports`, {
    method: 'POST',
    data: form,
    // Validating a few hundred thousand questions takes a while after the upload itself.
    timeout: 5 * 60 * 1000,
    onUploadProgress: (e: { loaded: number; total?: number }) => {
      if (onProgress && e.total) onProgress(Math.round((e.loaded / e.total) * 100));
    },
    ...options,
  });
}

/** POST …/imports/:id/commit — starts the background write; poll fetchBankImportJob for progress. */
export function commitBankImport(id: string, options?: RequestOptions) {
  return request<BankImportJobAnswer>(`${BASE}/bank/imports/${encodeURIComponent(id)}/commit`, {
    method: 'POST',
    data: {},
    ...options,
  });
}

export function fetchBankImportJob(id: string, options?: RequestOptions) {
  return request<BankImportJobAnswer>(`${BASE}/bank/imports/${encodeURIComponent(id)}`, { method: 'GET', ...options });
}
