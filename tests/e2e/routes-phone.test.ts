/** The route walk (./walk.ts) on a phone: every route, as a visitor, a user, an njit user and an administrator. */
import { walkRoutes } from './walk';

walkRoutes(['phone']);
