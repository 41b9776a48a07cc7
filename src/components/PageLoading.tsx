/** Shown while GET /api/user/me runs at start: an empty placeholder, no flash of content. */
export default function PageLoading() {
  return <div style={{ minHeight: '100vh' }} data-testid="page-loading" />;
}
