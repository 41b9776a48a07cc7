/** The route walk (./walk.ts) on a desktop: every route, as a visitor, a user, an njit user and an administrator. */
import { walkRoutes } from './walk';

walkRoutes(['desktop']);
