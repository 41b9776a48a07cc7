/**
 * What the login page takes from `@umijs/max`, for rendering it in Node at build time
 * (scripts/prerender-login.tsx). In the browser Umi's generated exports provide these; here the
 * router parts come from the same react-router-dom Umi's runtime uses, and nothing may call the rest
 * (effects and event handlers do not run in renderToString).
 */
export { Link, useLocation, useNavigate } from 'react-router-dom';

const notWhilePrerendering = (what: string) => () => {
  throw new Error(`${what} is not available while prerendering`);
};

export const useModel = () => ({ initialState: undefined, setInitialState: notWhilePrerendering('setInitialState') });
export const request = notWhilePrerendering('request');
