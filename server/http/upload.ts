/**
 * Reading one uploaded file (multipart/form-data, field `file`), with the refusals every upload gives:
 * 400 when the request is not multipart or carries no file, 413 when the file is larger than the route
 * allows. readUpload takes it into memory (the avatar); withSavedUpload writes it to a private temporary
 * file as it arrives (the NJIT roster and OCS bank imports, whose worker thread reads it), so a large
 * import never sits in the main thread's memory.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../errors';
import { createTempFile, removeTempFile } from '../lib/spool';

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

/** The file part of the request. */
async function filePart(request: FastifyRequest, options: UploadOptions): Promise<MultipartFile> {
  const { maxBytes, noun = '文件' } = options;
  if (!request.isMultipart()) throw badRequest(`请以 multipart/form-data 上传${noun}（字段 file）`);
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!file) throw badRequest(`请选择要上传的${noun}`, { file: [`请选择要上传的${noun}`] });
  return file;
}

/** What reading the file failed with, as the client should see it. */
function readFailure(err: unknown, options: UploadOptions): unknown {
  if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
    const message = options.tooLargeMessage ?? `文件不能超过 ${options.maxBytes / 1024 / 1024} MB，请拆分后分批导入`;
    return new HttpError(413, 'FILE_TOO_LARGE', message);
  }
  return err;
}

/** A file name is stored (import history): no control characters, no lone surrogates. */
function cleanName(name: string | undefined): string {
  const fileName = (name || '')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .slice(0, 200);
  return fileName || 'upload';
}

export async function readUpload(request: FastifyRequest, options: UploadOptions): Promise<Upload> {
  const file = await filePart(request, options);
  let buffer: Buffer;
  try {
    buffer = await file.toBuffer();
  } catch (err) {
    throw readFailure(err, options);
  }
  return { fileName: cleanName(file.filename), buffer };
}

/**
 * Saves the uploaded file to a private temporary file as it arrives and calls `handle` with its path; the
 * file is removed when `handle` is done, whatever it did.
 */
export async function withSavedUpload<T>(
  request: FastifyRequest,
  options: UploadOptions,
  handle: (upload: { fileName: string; file: string }) => Promise<T>,
): Promise<T> {
  const part = await filePart(request, options);
  const file = await createTempFile('upload');
  try {
    try {
      await pipeline(part.file, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      throw readFailure(err, options);
    }
    // The part ends early (not in error) when the file was cut at the limit.
    if (part.file.truncated) throw readFailure({ code: 'FST_REQ_FILE_TOO_LARGE' }, options);
    return await handle({ fileName: cleanName(part.filename), file });
  } finally {
    await removeTempFile(file);
  }
}
