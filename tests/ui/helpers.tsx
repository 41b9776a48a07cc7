/** Render a component inside a memory router and expose where navigation ended up. */
import { render } from '@testing-library/react';
import React from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderAt(path: string, element: React.ReactElement, routePath = '*') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path={routePath}
          element={
            <>
              {element}
              <LocationProbe />
            </>
          }
        />
        <Route path="*" element={<LocationProbe />} />
      </Routes>
    </MemoryRouter>,
  );
}

/**
 * Answers matchMedia (antd's Grid and ProLayout's breakpoints) and innerWidth as a screen `width` px
 * wide would; jsdom has no layout, so a page's responsive choices are tested through these.
 * Returns the function that puts the default back.
 */
export function atViewport(width: number): () => void {
  const originalMatchMedia = window.matchMedia;
  const originalWidth = window.innerWidth;
  const matches = (query: string) =>
    query.split(/\s+and\s+/).every((part) => {
      const m = /\((min|max)-width:\s*(\d+(?:\.\d+)?)px\)/.exec(part);
      if (!m) return false;
      return m[1] === 'min' ? width >= Number(m[2]) : width <= Number(m[2]);
    });
  window.matchMedia = (query: string) =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  return () => {
    window.matchMedia = originalMatchMedia;
    Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: originalWidth });
  };
}
