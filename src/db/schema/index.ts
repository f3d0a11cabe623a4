export * from './access.js';
export * from './orgs.js';
export * from './repos.js';
export * from './users.js';
export * from './transfers.js';
export * from './issues.js';
export * from './events.js';
export * from './hooks.js';
