/**
 * Writes a synthetic OCS question bank as JSON Lines, one `{title,type,options,answer}` per line
 * (options without letter prefixes, answer an array), for loading into a bank before a benchmark.
 *
 *   tsx bench/ocs/generate.ts --count 1000000 --out /tmp/ocs1m.jsonl [--seed 1] [--check]
 *
 * `--check` also verifies that every title is distinct; it keeps all titles in memory, so it is off
 * by default and the plain run stays in flat memory.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { generateQuestions, maxQuestions } from './synthetic';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const count = Number(arg('count') ?? 1_000_000);
  const seed = Number(arg('seed') ?? 1);
  const out = arg('out');
  const check = process.argv.includes('--check');
  if (!out || !Number.isInteger(count) || count < 1 || count > maxQuestions() || !Number.isInteger(seed)) {
    console.error(
      `usage: tsx bench/ocs/generate.ts --count <1..${maxQuestions()}> --out <file.jsonl> [--seed N] [--check]`,
    );
    process.exit(2);
  }
  const stream = fs.createWriteStream(out);
  const seen = check ? new Set<string>() : null;
  const t0 = performance.now();
  let buffer = '';
  let rows = 0;
  for (const q of generateQuestions(count, seed)) {
    if (seen) {
      if (seen.has(q.title)) throw new Error(`duplicate title at row ${rows}: ${q.title}`);
      seen.add(q.title);
    }
    buffer += JSON.stringify(q) + '\n';
    rows++;
    // Batch writes: one write per question would cost more than generating it.
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await once(stream, 'drain');
      buffer = '';
    }
  }
  stream.end(buffer);
  await once(stream, 'finish');
  const seconds = (performance.now() - t0) / 1000;
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  console.log(
    `wrote ${rows} questions to ${out} in ${seconds.toFixed(2)} s (${Math.round(rows / seconds)} rows/s, rss ${rss} MB)` +
      (seen ? `; all ${seen.size} titles distinct` : ''),
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
