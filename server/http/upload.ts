/**
 * Reading one uploaded file (multipart/form-data, field `file`) into memory, with the refusals every
 * import upload gives: 400 when the request is not multipart or carries no file, 413 when the file is
 * larger than the route allows. Used by the avatar upload, the NJIT roster import and the OCS bank import.
 */
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../errors';

export interface UploadOptions {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The 413 message; by default 「文件不能超过 N MB，请拆分后分批导入」 with N = maxBytes in MB. */
  tooLargeMessage?: string;
  /** What the user is asked to upload, in the messages: 文件 (default) or 图片. */
  noun?: string;
}

export interface Upload {
  /** The client's file name, at most 200 characters ('upload' when it sent none). */
  fileName: string;
  buffer: Buffer;
}

export async function readUpload(request: FastifyRequest, options: UploadOptions): Promise<Upload> {
  const { maxBytes, noun = '文件' } = options;
  if (!request.isMultipart()) throw badRequest(`请以 multipart/form-data 上传${noun}（字段 file）`);
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!file) throw badRequest(`请选择要上传的${noun}`, { file: [`请选择要上传的${noun}`] });
  let buffer: Buffer;
  try {
    buffer = await file.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const message = options.tooLargeMessage ?? `文件不能超过 ${maxBytes / 1024 / 1024} MB，请拆分后分批导入`;
      throw new HttpError(413, 'FILE_TOO_LARGE', message);
    }
    throw err;
  }
  // A file name is stored (import history): no control characters, no lone surrogates.
  const fileName = (file.filename || '')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .slice(0, 200);
  return { fileName: fileName || 'upload', buffer };
}
