/**
 * The shapes of the header's search: each module answers one `GET …/search?q=` of its own (behind the
 * access rules of its pages) with a few hits; the dialog groups them by kind. Students come back as the
 * NJIT pages show them (masked), everything else as a title and a line of detail.
 */
import { z } from 'zod';
import { ok } from './common';
import { Student } from './njit';
import { BAD_TEXT_MESSAGE, isBadText } from './text';

/** Hits per kind: the dialog shows a handful and leads to the module's page for more. */
export const SEARCH_LIMIT = 6;
export const SEARCH_MAX_LENGTH = 64;

export const SearchQuery = z.object({
  q: z
    .string({ error: '请输入搜索内容' })
    .trim()
    .min(1, '请输入搜索内容')
    .max(SEARCH_MAX_LENGTH, `搜索内容最多 ${SEARCH_MAX_LENGTH} 个字符`)
    // The server's edge refuses these in every request already; the dialog checks with this schema too.
    .refine((s) => !isBadText(s), BAD_TEXT_MESSAGE),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchHit = z.object({
  id: z.number().int(),
  title: z.string(),
  detail: z.string().nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchHitsResponse = ok(z.array(SearchHit));
export const StudentHitsResponse = ok(z.array(Student));
