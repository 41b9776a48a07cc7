/** The administrators' one-time download of a redeem-code batch (src/contract/api/ocsFree.ts). */
import * as api from '@/contract/api/ocsFree';
import { call } from './call';

/**
 * The batch's codes CSV as a Blob — works once per batch. A failure's envelope arrives as a Blob too;
 * it is parsed back so callers read errorMessage as usual.
 */
export async function downloadRedeemCodes(id: number): Promise<Blob> {
  try {
    return (await call(
      api.redeemCodesCsv,
      { params: { id } },
      { responseType: 'blob', skipErrorHandler: true },
    )) as Blob;
  } catch (error) {
    const response = (error as { response?: { data?: unknown } }).response;
    if (response && typeof Blob !== 'undefined' && response.data instanceof Blob) {
      try {
        response.data = JSON.parse(await response.data.text());
      } catch {
        // Not JSON: the status line speaks for itself.
      }
    }
    throw error;
  }
}
