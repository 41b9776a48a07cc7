/** The zip guard on its own: limits on total inflated bytes, ratio and entry count; lying sizes caught by inflating. */
import JSZip from 'jszip';
import { assertZipWithin } from '../../server/lib/zip-guard';

const zipOf = (files: Record<string, Buffer>) => {
  const zip = new JSZip();
  for (const [name, body] of Object.entries(files)) zip.file(name, body);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
};

test('an ordinary archive passes and reports what it inflated to', async () => {
  const buf = await zipOf({ 'a.txt': Buffer.from('表格'.repeat(1000)), 'b/c.xml': Buffer.from('<x/>') });
  const r = await assertZipWithin(buf, { maxTotalBytes: 1e6, maxRatio: 100, maxEntries: 10 });
  expect(r).toEqual({ entries: 3, inflated: 6000 + 4 }); // two files and the directory b/
});

test('a high ratio is refused with 413 even under the total cap', async () => {
  const buf = await zipOf({ 'zeros.bin': Buffer.alloc(5 * 1024 * 1024) });
  await expect(assertZipWithin(buf, { maxTotalBytes: 1e9, maxRatio: 50, maxEntries: 10 })).rejects.toMatchObject({
    statusCode: 413,
    errorCode: 'ARCHIVE_TOO_LARGE',
  });
});

test('too many entries are refused', async () => {
  const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, Buffer.from(`${i}`)]));
  await expect(
    assertZipWithin(await zipOf(files), { maxTotalBytes: 1e9, maxRatio: 1e6, maxEntries: 20 }),
  ).rejects.toMatchObject({
    statusCode: 413,
  });
});

test('a directory that lies about an entry size is refused as a damaged archive', async () => {
  const buf = await zipOf({ 'big.txt': Buffer.alloc(2 * 1024 * 1024, 0x61) });
  // Patch the declared uncompressed size (local header offset 22, central directory +24) to 10 bytes.
  const lying = Buffer.from(buf);
  lying.writeUInt32LE(10, 22);
  const cd = lying.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  lying.writeUInt32LE(10, cd + 24);
  await expect(
    assertZipWithin(lying, { maxTotalBytes: 1024 * 1024, maxRatio: 1e6, maxEntries: 10 }),
  ).rejects.toMatchObject({
    statusCode: 400,
    errorCode: 'BAD_ARCHIVE',
  });
});

test('something that is not a zip is a 400', async () => {
  await expect(
    assertZipWithin(Buffer.from('not a zip at all'), { maxTotalBytes: 1e6, maxRatio: 10, maxEntries: 10 }),
  ).rejects.toMatchObject({
    statusCode: 400,
  });
});
