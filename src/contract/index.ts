export * from './common';
export * from './user';
export * from './account';
export * from './ums';
export * from './njit';
