/** The ids that tie a tab of the strip to its page's panel (aria-controls, aria-labelledby). */
const idOf = (path: string) => path.replace(/[^\w-]/g, '_');
export const panelIdOf = (path: string) => `page-panel-${idOf(path)}`;
export const tabIdOf = (path: string) => `page-tab-${idOf(path)}`;
