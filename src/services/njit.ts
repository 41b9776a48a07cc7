/** Typed client of the NJIT student lookup (src/contract/njit.ts). */
// Type-only imports: the schemas stay out of the bundle.
import type {
  ImportCommitResponse,
  ImportListResponse,
  ImportPreviewResponse,
  NjitAuditListResponse,
  NjitAuditQuery,
  NjitOptionsResponse,
  NjitOverviewResponse,
  RevealBody,
  RevealResponse,
  StudentResponse,
  StudentSearchQuery,
  StudentSearchResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type StudentSearchAnswer = z.infer<typeof StudentSearchResponse>;
export type StudentAnswer = z.infer<typeof StudentResponse>;
export type RevealAnswer = z.infer<typeof RevealResponse>;
export type NjitOptionsAnswer = z.infer<typeof NjitOptionsResponse>;
export type NjitOverviewAnswer = z.infer<typeof NjitOverviewResponse>;
export type ImportPreviewAnswer = z.infer<typeof ImportPreviewResponse>;
export type ImportCommitAnswer = z.infer<typeof ImportCommitResponse>;
export type ImportListAnswer = z.infer<typeof ImportListResponse>;
export type NjitAuditListAnswer = z.infer<typeof NjitAuditListResponse>;
export type StudentSearchParams = Partial<z.input<typeof StudentSearchQuery>>;
export type NjitAuditParams = Partial<z.input<typeof NjitAuditQuery>>;

/** GET /api/njit/students — at least one criterion; at most 50 per page; rate-limited per user. */
export function searchStudents(params: StudentSearchParams, options?: RequestOptions) {
  return request<StudentSearchAnswer>('/api/njit/students', { method: 'GET', params, ...options });
}

/** GET /api/njit/students/:id — the full record, phone and ID masked; audited. */
export function fetchStudent(id: number, options?: RequestOptions) {
  return request<StudentAnswer>(`/api/njit/students/${id}`, { method: 'GET', ...options });
}

/** POST /api/njit/students/:id/reveal — administrators only, with a reason; audited. */
export function revealStudentField(id: number, body: RevealBody, options?: RequestOptions) {
  return request<RevealAnswer>(`/api/njit/students/${id}/reveal`, { method: 'POST', data: body, ...options });
}

/** GET /api/njit/options — colleges, majors and grades for the search form. */
export function fetchNjitOptions(options?: RequestOptions) {
  return request<NjitOptionsAnswer>('/api/njit/options', { method: 'GET', ...options });
}

/** GET /api/njit/overview */
export function fetchNjitOverview(options?: RequestOptions) {
  return request<NjitOverviewAnswer>('/api/njit/overview', { method: 'GET', ...options });
}

/** POST /api/njit/imports — multipart upload; answers the preview and validation report. */
export function uploadRoster(file: File, onProgress?: (percent: number) => void, options?: RequestOptions) {
  const form = new FormData();
  form.append('file', file);
  return request<ImportPreviewAnswer>('/api/njit/imports', {
    method: 'POST',
    data: form,
    // Parsing 100,000 rows takes a few seconds after the upload itself.
    timeout: 5 * 60 * 1000,
    onUploadProgress: (e: { loaded: number; total?: number }) => {
      if (onProgress && e.total) onProgress(Math.round((e.loaded / e.total) * 100));
    },
    ...options,
  });
}

/** POST /api/njit/imports/:id/commit — applies a previewed import in one transaction. */
export function commitRosterImport(importId: string, options?: RequestOptions) {
  return request<ImportCommitAnswer>(`/api/njit/imports/${encodeURIComponent(importId)}/commit`, {
    method: 'POST',
    data: {},
    timeout: 5 * 60 * 1000,
    ...options,
  });
}

/** GET /api/njit/imports — import history (administrators). */
export function fetchImports(params: { current?: number; pageSize?: number }, options?: RequestOptions) {
  return request<ImportListAnswer>('/api/njit/imports', { method: 'GET', params, ...options });
}

/** GET /api/njit/audit — the njit audit log (administrators). */
export function fetchNjitAudit(params: NjitAuditParams, options?: RequestOptions) {
  return request<NjitAuditListAnswer>('/api/njit/audit', { method: 'GET', params, ...options });
}

/** URL of the CSV export of the audit log with the same filters (a plain download link). */
export function njitAuditExportUrl(params: Omit<NjitAuditParams, 'current' | 'pageSize'>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `/api/njit/audit/export${s ? `?${s}` : ''}`;
}
