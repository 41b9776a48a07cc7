/** Writes file.br and file.gz beside every compressible file of `dir` (see precompress.mjs). */
export function precompress(dir: string): { files: number; raw: number; br: number };
