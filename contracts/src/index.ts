export * from './events.js';
export * from './api.js';
export * from './tubers.js';
export * from './orders.js';
export * from './phone.js';
export * from './locales.js';
export * from './problems.js';
export * from './reviews.js';
