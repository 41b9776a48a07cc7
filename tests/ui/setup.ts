import '@testing-library/jest-dom';

// antd's responsive helpers need matchMedia, which jsdom lacks.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// jsdom's getComputedStyle cascades every antd CSS-in-JS rule in the document (0.4 s a call once a
// ProTable has rendered). Answer it from inline styles for every UI test; no test may assert on
// visibility that comes from stylesheet classes.
jest
  .spyOn(window, 'getComputedStyle')
  .mockImplementation((el: Element) => (el as HTMLElement).style ?? document.createElement('div').style);
