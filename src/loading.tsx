/** Umi's route loading component (a file convention): shown while a page's chunk loads. */
export { default } from './components/RouteLoading';
