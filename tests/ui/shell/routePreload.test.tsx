import { lazy, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { matchedRouteIds, preloadRouteComponents, type RouteRecord } from '@/routePreload';

// The shape of Umi's route table (src/.umi/core/route.tsx): ids, absolute paths, parents.
const routes: Record<string, RouteRecord> = {
  layout: { id: 'layout', path: '/' },
  '1': { id: '1', path: '/', redirect: '/home', parentId: 'layout' },
  '2': { id: '2', path: '/home', parentId: 'layout' },
  '3': { id: '3', path: '/user/login' },
  '9': { id: '9', path: '/user', parentId: 'layout' },
  '11': { id: '11', path: '/user/me', parentId: '9' },
  '57': { id: '57', path: '*', parentId: 'layout' },
};

describe('the routes of the first URL', () => {
  it.each([
    ['/user/login', ['3']],
    ['/home', ['layout', '2']],
    ['/user/me', ['layout', '9', '11']],
    ['/no/such/page', ['layout', '57']],
    ['/', ['layout']], // the redirect itself renders nothing to load
  ])('%s renders %j', (pathname, ids) => {
    expect(matchedRouteIds(routes, pathname)).toEqual(ids);
  });
});

describe('preloadRouteComponents', () => {
  const page = (text: string) => {
    const load = jest.fn(() => Promise.resolve({ default: () => <p>{text}</p> }));
    return { load, Component: lazy(load) };
  };
  const shown = (Component: React.ComponentType) =>
    renderToString(
      <Suspense fallback={<i>loading</i>}>
        <Component />
      </Suspense>,
    );

  it("starts the first URL's pages only, and React then renders them without suspending", async () => {
    const login = page('login form');
    const home = page('home');
    const started = preloadRouteComponents(routes, { '2': home.Component, '3': login.Component }, '/user/login');
    expect(started).toEqual(['3']);
    expect(login.load).toHaveBeenCalledTimes(1);
    expect(home.load).not.toHaveBeenCalled();
    await Promise.resolve(); // the import settles
    await Promise.resolve();
    expect(shown(login.Component)).toContain('login form');
    expect(shown(home.Component)).toContain('loading'); // never started: it suspends on first render
    expect(login.load).toHaveBeenCalledTimes(1); // React reused the started import
  });

  it('leaves a route component that is not lazy alone', () => {
    const Plain = () => <p>plain</p>;
    expect(preloadRouteComponents(routes, { '3': Plain }, '/user/login')).toEqual([]);
  });

  it('keeps a failed import for the page to show, and throws nothing itself', async () => {
    const Broken = lazy(() => Promise.reject(new Error('ChunkLoadError')));
    expect(() => preloadRouteComponents(routes, { '3': Broken }, '/user/login')).not.toThrow();
    await Promise.resolve();
    await Promise.resolve();
    // Rendered, the page throws the load's error (for the error boundary), not a pending import.
    expect(() => renderToString(<Broken />)).toThrow('ChunkLoadError');
  });
});
