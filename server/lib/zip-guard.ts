/**
 * Refuses zip bombs before a zip-based file (an .xlsx) is handed to a parser that inflates it whole.
 * Every entry is actually inflated, as a stream that is counted and dropped, so a lying size in the
 * zip's directory cannot slip past: the check stops at the first limit crossed, having held at most one
 * chunk in memory. Measured: a 409 KB .xlsx inflating to 400 MB took the server from 626 MB to 1.9 GB.
 */
import yauzl from 'yauzl';
import { HttpError } from '../errors';

export interface ZipLimits {
  /** Everything inflated together, in bytes. */
  maxTotalBytes: number;
  /** Inflated size ÷ the file's size. Spreadsheets inflate 5–20×; bombs a thousandfold. */
  maxRatio: number;
  maxEntries: number;
}

const refuse = (message: string) => new HttpError(413, 'ARCHIVE_TOO_LARGE', message);

function openZip(buf: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip),
    ),
  );
}

/** Resolves when the archive stays within the limits; throws 413 (too big) or 400 (not a zip). */
export async function assertZipWithin(buf: Buffer, limits: ZipLimits): Promise<{ entries: number; inflated: number }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(buf);
  } catch {
    throw new HttpError(400, 'BAD_ARCHIVE', '文件已损坏或不是有效的压缩格式');
  }
  const budget = Math.min(limits.maxTotalBytes, Math.max(buf.length, 1) * limits.maxRatio);
  const tooBig = () =>
    refuse(
      `文件解压后过大（超过 ${Math.round(budget / 1024 / 1024)} MB 或压缩比异常），已拒绝处理；请检查文件或拆分后上传`,
    );
  let inflated = 0;
  let entries = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        entries++;
        if (entries > limits.maxEntries) return reject(refuse(`压缩文件中的条目过多（超过 ${limits.maxEntries} 个）`));
        // The directory's word first: a declared size over the budget ends it before any inflating.
        if (inflated + entry.uncompressedSize > budget) return reject(tooBig());
        if (/\/$/.test(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('unreadable entry'));
          stream.on('data', (chunk: Buffer) => {
            inflated += chunk.length;
            if (inflated > budget) {
              stream.destroy();
              reject(tooBig());
            }
          });
          stream.on('error', reject);
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.readEntry();
    });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(400, 'BAD_ARCHIVE', '文件已损坏或不是有效的压缩格式');
  } finally {
    zip.close();
  }
  return { entries, inflated };
}
