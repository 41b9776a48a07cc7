/**
 * Dev proxy used only with `MOCK=none max dev` (npm run dev:ui): the UI talks to a
 * real API server instead of mock/. API_URL overrides the default address.
 */
const target = process.env.API_URL || 'http://127.0.0.1:8001';

const proxy = {
  '/api/': { target, changeOrigin: false },
};

export default proxy;
