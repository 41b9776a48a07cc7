/**
 * jsdom's getComputedStyle cascades every antd CSS-in-JS rule in the document (about
 * 300 kB once ProTable has rendered): 0.4 s per call, so opening one Popconfirm or Select
 * takes ~10 s. Tests that call this answer getComputedStyle from inline styles only; they
 * must not assert on visibility that depends on stylesheet classes.
 */
export function inlineComputedStyle() {
  let spy: jest.SpyInstance | undefined;
  beforeAll(() => {
    spy = jest
      .spyOn(window, 'getComputedStyle')
      .mockImplementation((el: Element) => (el as HTMLElement).style ?? document.createElement('div').style);
  });
  afterAll(() => spy?.mockRestore());
}
